/**
 * Typed context keys (Svelte's setContext/getContext): the page's services are made once by App.svelte
 * (page-services.ts) and handed down through the component tree, instead of module singletons that every file
 * imports and no test can replace. A key carries the type of its value, so `use(KEY)` needs no cast.
 */
import { getContext, hasContext, setContext } from 'svelte';

export interface ContextKey<T> {
  readonly symbol: symbol;
  /** What the service is, for the error when a component is mounted without it. */
  readonly name: string;
  /** Never set: carries `T` for the type checker. */
  readonly type?: T;
}

export function contextKey<T>(name: string): ContextKey<T> {
  return { symbol: Symbol(name), name };
}

/** Gives `value` to this component and everything below it (call during component initialisation). */
export function provide<T>(key: ContextKey<T>, value: T): T {
  setContext(key.symbol, value);
  return value;
}

/** The value an ancestor provided under `key` (call during component initialisation). */
export function use<T>(key: ContextKey<T>): T {
  if (!hasContext(key.symbol)) throw new Error(`No ${key.name} here: mount this component inside App.svelte, which provides it.`);
  return getContext<T>(key.symbol);
}
