/**
 * The three languages of the interface (src-renderer/src/shared/i18n): German and Spanish say everything English
 * says — the same messages, each a valid ICU message with the same placeholders and plural choices — every error
 * code the service or the page can report has a sentence in each, the page picks the person's language, and dates,
 * numbers, sizes and money come out the way each language writes them.
 */
import { readFileSync } from 'node:fs';
import { IntlMessageFormat } from 'intl-messageformat';
import { afterEach, describe, expect, it } from 'vitest';
import { JOB_ERROR_CODES, REQUEST_ERRORS, WAITING_CODES } from '../../../../../src-main/common/errors.js';
import { describeError } from '../../../../../src-renderer/src/shared/error-messages.js';
import { formatBytes, formatDay, formatMoney, formatMonth, formatUsd, formatWhen } from '../../../../../src-renderer/src/shared/format.js';
import { chooseLanguage, language, t } from '../../../../../src-renderer/src/shared/i18n/i18n.svelte.js';
import { LOCALES, matchLocale, resolveLocale } from '../../../../../src-renderer/src/shared/i18n/locales.js';

type Dict = { [key: string]: string | Dict };
const LOCALE_DIR = new URL('../../../../../src-renderer/src/shared/i18n/locales/', import.meta.url);
const dictionaries = Object.fromEntries(LOCALES.map((l) => [l, JSON.parse(readFileSync(new URL(`${l}.json`, LOCALE_DIR), 'utf8')) as Dict]));

function flat(dict: Dict, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(dict)) {
    if (typeof value === 'string') out.set(prefix + key, value);
    else for (const [k, v] of flat(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

/** The placeholders of an ICU message (`{name}`, `{count, plural, …}`), sorted. */
function placeholders(message: string): string[] {
  const names = new Set<string>();
  const walk = (elements: unknown[]): void => {
    for (const el of elements as { type: number; value?: string; options?: Record<string, { value: unknown[] }> }[]) {
      if (el.value && el.type !== 0 && el.type !== 7) names.add(el.value); // 0: literal text, 7: '#'
      for (const option of Object.values(el.options ?? {})) walk(option.value);
    }
  };
  walk(new IntlMessageFormat(message, 'en', undefined, { ignoreTag: true }).getAst());
  return [...names].sort();
}

afterEach(async () => await chooseLanguage('en'));
/** Intl puts no-break spaces where a line must not break ("12,50 $"): compared as plain spaces. */
const plain = (texts: string[]): string[] => texts.map((s) => s.replace(/[\u00a0\u202f]/g, ' '));

describe('the languages of the interface', () => {
  const english = flat(dictionaries.en!);

  it('German and Spanish have every English message and no other, with the same placeholders', () => {
    expect(english.size).toBeGreaterThan(500);
    for (const locale of ['de', 'es'] as const) {
      const other = flat(dictionaries[locale]!);
      expect([...other.keys()].sort(), locale).toEqual([...english.keys()].sort());
      const differ = [...english].filter(([key, text]) => placeholders(text).join() !== placeholders(other.get(key)!).join()).map(([key]) => key);
      expect(differ, `${locale}: placeholders differ`).toEqual([]);
    }
  });

  it('every message is a valid ICU message in its language and reads as words, not as a key or English', () => {
    for (const locale of LOCALES) {
      for (const [key, text] of flat(dictionaries[locale]!)) {
        expect(() => new IntlMessageFormat(text, locale, undefined, { ignoreTag: true }), `${locale} ${key}`).not.toThrow();
        expect(text.trim(), `${locale} ${key}`).not.toBe('');
      }
    }
    // A translation is not the English text left in place (names, formats and symbols aside).
    const same = (locale: 'de' | 'es'): string[] => {
      const other = flat(dictionaries[locale]!);
      return [...english].filter(([key, text]) => other.get(key) === text && /\p{L}{4,}\s+\p{L}{3,}/u.test(text)).map(([key]) => key);
    };
    expect(same('de')).toEqual([]);
    expect(same('es')).toEqual([]);
  });

  it('has a sentence for every error and waiting code the service or the page reports, in each language', async () => {
    const codes = [
      ...Object.keys(REQUEST_ERRORS), ...JOB_ERROR_CODES, ...WAITING_CODES,
      // The model manager's, a watch folder's, and the page's own.
      'download_failed', 'checksum_mismatch', 'install_failed', 'unsafe_archive', 'import_failed', 'folder_unreadable', 'network_error', 'empty_file',
      'live_unavailable', 'live_refused', 'dictation_refused', 'microphone_insecure', 'microphone_not_allowed', 'microphone_not_found', 'microphone_failed',
    ];
    for (const locale of LOCALES) {
      const errors = flat(dictionaries[locale]!);
      const missing = codes.filter((code) => !errors.has(`errors.${code}`));
      expect(missing, locale).toEqual([]);
    }
    await chooseLanguage('de');
    expect(describeError('file_too_large')).toBe('Die Datei ist größer, als dieses Modell annimmt.');
    expect(describeError('too_many_items')).toBe('Ein Stapel umfasst höchstens 50 Einträge.');
    await chooseLanguage('es');
    expect(describeError('audio_decode_failed')).toMatch(/^No se pudo leer el archivo como audio/);
  });

  it('picks the first language of the browser or OS that it speaks, else English; a choice in Settings wins', async () => {
    expect(matchLocale(['de-AT', 'en-US'])).toBe('de');
    expect(matchLocale(['fr-FR', 'es-MX', 'de'])).toBe('es');
    expect(matchLocale(['ja', 'fr'])).toBe('en');
    expect(matchLocale([])).toBe('en');
    expect(resolveLocale('system', ['es-419'])).toBe('es');
    expect(resolveLocale('de', ['es-419'])).toBe('de');
    await chooseLanguage('es');
    expect(language()).toBe('es');
    expect(t('shell.tabs.jobs')).toBe('Trabajos');
  });

  it('writes plurals, sizes, money, days and relative times the way each language does', async () => {
    const now = Date.parse('2026-03-15T12:00:00Z');
    await chooseLanguage('en');
    expect(t('transcribe.staged.title', { count: 1 })).toBe('1 recording for the hosted service');
    expect(t('transcript.words', { count: 1234 })).toBe('1,234 words');
    expect(plain([formatBytes(1500), formatMoney(12.5), formatUsd(0.0012), formatMonth('2026-06'), formatDay('2026-07-01T00:00:00.000Z')])).toEqual(['1.5 kB', '$12.50', '$0.0012', 'June 2026', 'July 1']);
    expect(formatWhen('2026-03-15T11:55:00Z', now)).toBe('5 minutes ago');

    await chooseLanguage('de');
    expect(t('transcribe.staged.title', { count: 3 })).toBe('3 Aufnahmen für den gehosteten Dienst');
    expect(plain([t('transcript.words', { count: 1234 })])).toEqual(['1.234 Wörter']);
    expect(plain([formatBytes(1500), formatMoney(12.5), formatMonth('2026-06'), formatDay('2026-07-01T00:00:00.000Z')])).toEqual(['1,5 kB', '12,50 $', 'Juni 2026', '1. Juli']);
    expect(formatWhen('2026-03-15T11:55:00Z', now)).toBe('vor 5 Minuten');
    expect(formatWhen('2026-03-15T11:59:50Z', now)).toBe('jetzt');

    await chooseLanguage('es');
    expect(t('jobs.batchFiles', { count: 1, model: 'm' })).toBe('1 archivo · m');
    expect(plain([formatBytes(1500), formatMoney(12.5), formatMonth('2026-06'), formatDay('2026-07-01T00:00:00.000Z')])).toEqual(['1,5 kB', '12,50 US$', 'junio de 2026', '1 de julio']);
    expect(formatWhen('2026-03-15T09:00:00Z', now)).toBe('hace 3 horas');
  });
});
