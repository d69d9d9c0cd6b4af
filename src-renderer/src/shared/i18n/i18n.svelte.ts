/**
 * The i18n layer every user-visible string goes through: svelte-i18n (ICU messages: plurals, selects and numbers per
 * language, through intl-messageformat) holds the English, German and Spanish messages of ./locales, and `t(key,
 * values)` formats one in the current language. `t` reads the language as rune state, so a component, a `$derived` or
 * a work module that calls it while drawing is redrawn when the person switches language in Settings; text kept in
 * state (an error set by a click) is kept as its key or code and translated where it is shown.
 *
 * English is in the page's first bundle (it is also the fallback for anything missing); German and Spanish are chunks
 * of their own (about 11 KB gzipped each), loaded before the first paint when the page starts in them and in a
 * moment when the person switches (main.ts waits for `ready()`). They are files of the app, so this works offline.
 */
import { addMessages, format, init, locale, register, waitLocale } from 'svelte-i18n';
import { fromStore } from 'svelte/store';
import en from './locales/en.json' with { type: 'json' };
import { isLocale, loadLocaleChoice, resolveLocale, saveLocaleChoice, type Locale, type LocaleChoice } from './locales.js';

/** "a.b.c" for every message of en.json: a key that does not exist is a type error. */
type Paths<T> = { [K in keyof T & string]: T[K] extends string ? K : `${K}.${Paths<T[K]>}` }[keyof T & string];
export type MessageKey = Paths<typeof en>;
export type MessageValues = Record<string, string | number | Date | null | undefined>;

addMessages('en', en);
register('de', () => import('./locales/de.json', { with: { type: 'json' } }).then((m) => m.default));
register('es', () => import('./locales/es.json', { with: { type: 'json' } }).then((m) => m.default));
void init({ fallbackLocale: 'en', initialLocale: resolveLocale(loadLocaleChoice()) });

/** Resolves once the messages of the current language are loaded (the page mounts after it). */
export function ready(): Promise<void> {
  return waitLocale();
}

const currentLocale = fromStore(locale);
const formatter = fromStore(format);

/** The message `key` in the current language, its `{placeholders}` filled from `values`. */
export function t(key: MessageKey, values?: MessageValues): string {
  return formatter.current(key, values ? { values } : undefined);
}

/** Whether `key` names a message (for keys built from codes, such as `errors.${code}`). */
export function hasMessage(key: string): key is MessageKey {
  let node: unknown = en;
  for (const part of key.split('.')) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined;
  return typeof node === 'string';
}

/** The language the interface speaks now (reactive). */
export function language(): Locale {
  const current = currentLocale.current;
  return isLocale(current) ? current : 'en';
}

/**
 * Switches the interface to `choice` ('system': the browser's or OS's language) and remembers it in this browser;
 * resolves once that language's messages are loaded and shown.
 */
export async function chooseLanguage(choice: LocaleChoice): Promise<void> {
  saveLocaleChoice(choice);
  await locale.set(resolveLocale(choice));
}
