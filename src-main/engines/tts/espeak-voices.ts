/**
 * The voices and voice variants eSpeak NG ships, read from the installed @echogarden/espeak-ng-emscripten package
 * (its packed file table in espeak-ng.js and the data file) without starting eSpeak: the catalogue needs
 * them synchronously and cheaply. Nothing is listed by hand.
 */
import { openSync, readSync, closeSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface EspeakVoice {
  /** Voice id used in params: the voice file's name, lower-cased (`en-us`, `fr`, `cmn`, `yue-latn-jyutping`). */
  id: string;
  /** eSpeak identifier passed to set_voice (`gmw/en-US`). */
  identifier: string;
  name: string;
  /** Language codes (lower-case) with eSpeak's priority (lower is preferred). */
  languages: { code: string; priority: number }[];
}

export interface EspeakVoiceCatalogue {
  voices: EspeakVoice[];
  /** Variant names (`f3`, `m1`, `whisper`, …), the `speaker` param. */
  variants: string[];
  /** Every language code any voice declares, sorted. */
  languages: string[];
}

/** Where the package puts eSpeak's data in the module's (Emscripten's) file system. */
export const ESPEAK_DATA_DIR = '/usr/share/espeak-ng-data';
const LANG_DIR = `${ESPEAK_DATA_DIR}/lang/`;
const VARIANT_DIR = `${ESPEAK_DATA_DIR}/voices/!v/`;
const ENTRY = /\{filename:"(\/usr\/share\/espeak-ng-data\/(?:lang|voices\/!v)\/[^"]+)",start:(\d+),end:(\d+)\}/g;

let cached: EspeakVoiceCatalogue | undefined;

export function espeakPackageDir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('@echogarden/espeak-ng-emscripten/package.json'));
}

export function espeakVoiceCatalogue(): EspeakVoiceCatalogue {
  if (cached) return cached;
  const dir = espeakPackageDir();
  const js = readFileSync(join(dir, 'espeak-ng.js'), 'utf8');
  const fd = openSync(join(dir, 'espeak-ng.data'), 'r');
  const voices: EspeakVoice[] = [];
  const variants: string[] = [];
  try {
    for (const [, path, start, end] of js.matchAll(ENTRY)) {
      const length = Number(end) - Number(start);
      const buf = Buffer.alloc(length);
      readSync(fd, buf, 0, length, Number(start));
      // Voice files are UTF-8 ("Māori", "Norwegian Bokmål"); the offsets above are byte offsets, so decode after slicing.
      const text = buf.toString('utf8');
      if (path!.startsWith(VARIANT_DIR)) {
        variants.push(path!.slice(VARIANT_DIR.length));
        continue;
      }
      const identifier = path!.slice(LANG_DIR.length);
      const name = /^name\s+(.+)$/m.exec(text)?.[1]?.trim() ?? identifier;
      const languages = [...text.matchAll(/^language\s+(\S+)\s*(\d+)?/gm)].map((m) => ({
        code: m[1]!.toLowerCase(),
        priority: m[2] === undefined ? 5 : Number(m[2]),
      }));
      const id = identifier.slice(identifier.lastIndexOf('/') + 1).toLowerCase();
      voices.push({ id, identifier, name, languages });
    }
  } finally {
    closeSync(fd);
  }
  if (voices.length === 0) throw new Error('no eSpeak NG voices found in @echogarden/espeak-ng-emscripten (package layout changed?)');
  voices.sort((a, b) => a.id.localeCompare(b.id));
  variants.sort((a, b) => a.localeCompare(b));
  const languages = [...new Set(voices.flatMap((v) => v.languages.map((l) => l.code)))].sort();
  cached = { voices, variants, languages };
  return cached;
}

/**
 * Resolves a language code to a voice: an exact voice id, else the voice that declares the code with the best
 * priority, else the same with the code's last subtag dropped (`en-in` → `en`, `pt-br-x` → `pt-br`).
 */
export function voiceForLanguage(language: string): EspeakVoice | undefined {
  const { voices } = espeakVoiceCatalogue();
  let code = language.trim().toLowerCase().replace(/_/g, '-');
  while (code.length > 0) {
    const exact = voices.find((v) => v.id === code);
    if (exact) return exact;
    let best: { voice: EspeakVoice; priority: number } | undefined;
    for (const voice of voices) {
      for (const l of voice.languages) {
        if (l.code === code && (!best || l.priority < best.priority)) best = { voice, priority: l.priority };
      }
    }
    if (best) return best.voice;
    const dash = code.lastIndexOf('-');
    code = dash > 0 ? code.slice(0, dash) : '';
  }
  return undefined;
}

/**
 * A JSON Schema `pattern` that matches exactly the language values voiceForLanguage resolves: a voice id or a
 * declared code (any letter case, `-` or `_` between subtags), optionally followed by more subtags that are dropped
 * one by one (`en-IN` → `en`). The schema refuses `xx-YY` before a job exists; the engine resolves what it accepts.
 */
export function espeakLanguagePattern(): string {
  const { voices } = espeakVoiceCatalogue();
  const codes = new Set<string>();
  for (const voice of voices) {
    codes.add(voice.id);
    for (const l of voice.languages) codes.add(l.code);
  }
  const anyCase = (code: string): string =>
    [...code]
      .map((ch) => (/[a-z]/.test(ch) ? `[${ch}${ch.toUpperCase()}]` : ch === '-' || ch === '_' ? '[-_]' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
  // Longest first, so that an alternation never stops at a shorter code that is a prefix of a longer one.
  const alternatives = [...codes].sort((a, b) => b.length - a.length || a.localeCompare(b)).map(anyCase);
  return `^(?:${alternatives.join('|')})(?:[-_][A-Za-z0-9]+)*$`;
}
