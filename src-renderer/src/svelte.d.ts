declare module '*.svelte' {
  import type { Component } from 'svelte';
  const component: Component<Record<string, unknown>>;
  export default component;
}

/** Vite builds a module imported with `?worker&url` as a file of its own and gives its URL (the AudioWorklet). */
declare module '*?worker&url' {
  const url: string;
  export default url;
}
