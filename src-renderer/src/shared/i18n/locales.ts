/**
 * The languages the interface speaks and how the page picks one: the person's choice from Settings (kept in this
 * browser's localStorage), else the first of the browser's or the OS's languages that Voxdesk speaks, else English.
 * Pure, so the choice is tested without a page.
 */

/** Every language the interface is translated into; English is also the fallback for anything missing. */
export const LOCALES = ['en', 'de', 'es'] as const;
export type Locale = (typeof LOCALES)[number];
export type LocaleChoice = 'system' | Locale;

/** Each language's name in itself, as a language menu shows it (never translated). */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', de: 'Deutsch', es: 'Español' };

const KEY = 'voxdesk.locale';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The first of `preferred` (BCP 47 tags, most wanted first: navigator.languages) that is translated, else English. */
export function matchLocale(preferred: readonly string[]): Locale {
  for (const tag of preferred) {
    const language = tag.toLowerCase().split(/[-_]/)[0];
    if (isLocale(language)) return language;
  }
  return 'en';
}

/** The languages this browser (or the OS, in the desktop app) asks for, most wanted first. */
export function systemLanguages(): readonly string[] {
  const nav = (globalThis as { navigator?: { languages?: readonly string[]; language?: string } }).navigator;
  return nav?.languages?.length ? nav.languages : nav?.language ? [nav.language] : [];
}

export function loadLocaleChoice(): LocaleChoice {
  const stored = globalThis.localStorage?.getItem(KEY);
  return isLocale(stored) ? stored : 'system';
}

export function saveLocaleChoice(choice: LocaleChoice): void {
  if (choice === 'system') globalThis.localStorage?.removeItem(KEY);
  else globalThis.localStorage?.setItem(KEY, choice);
}

export function resolveLocale(choice: LocaleChoice, preferred: readonly string[] = systemLanguages()): Locale {
  return choice === 'system' ? matchLocale(preferred) : choice;
}
