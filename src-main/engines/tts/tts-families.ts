/**
 * Neural voice families sherpa-onnx-node 1.13.8 runs, and how an installed voice package becomes a catalogue row's
 * engine settings. The model manager calls ttsFamilyDefinition() for each installed voice package.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { ModelLimits } from '../../common/api-types.js';
import type { ModelDefinition } from '../model-definition.js';
import { OUTPUT_PARAMS_SCHEMA, outputFormatRules, SPEED_SCHEMA } from './output-params.js';
import { voiceLanguages } from './voice-languages.js';
import { onnxMetadataOrEmpty } from '../onnx-metadata.js';
import { isMultilingualKokoro, KOKORO_V019_SPEAKERS, kokoroVoiceLabel, kokoroVoiceLanguage } from './kokoro-voices.js';

export const TTS_FAMILIES = ['vits', 'piper', 'kokoro', 'matcha', 'kitten'] as const;
export type TtsFamily = (typeof TTS_FAMILIES)[number];

export interface TtsPackage {
  id: string;
  /** Folder of the installed package; relative file paths resolve against it. */
  dir: string;
  languages: string[];
  /**
   * Files by role. vits: model, tokens, and lexicon or dataDir (espeak-ng-data), optional dictDir.
   * piper: model, tokens, dataDir. kokoro: model, voices, tokens, dataDir, optional lexicon.
   * matcha: acousticModel, vocoder, tokens, and lexicon or dataDir. kitten: model, voices, tokens, dataDir.
   */
  files: Record<string, string>;
  /** Speakers in the model (speaker param range). Default 1. */
  numSpeakers?: number;
  /** The model's output rate when known (22050 for most VITS/Piper, 24000 for Kokoro). */
  sampleRate?: number;
  /** The speakers' names in id order (Kokoro and Kitten metadata `speaker_names`), when known. */
  speakerNames?: string[];
}

/** engineConfig of a sherpa-tts model (JSON only). */
export interface SherpaTtsEngineConfig {
  family: TtsFamily;
  /** sherpa-onnx OfflineTtsModelConfig without numThreads: `{vits: {...}}`, `{kokoro: {...}}`, … (absolute paths). */
  model: Record<string, Record<string, string>>;
  numSpeakers: number;
  sampleRate: number | null;
  maxTextChars: number;
  /**
   * A multilingual Kokoro (v1.0): the espeak-ng voice each speaker id phonemizes with (kokoro-voices.ts), told to
   * sherpa-onnx per request. Absent for single-language voices.
   */
  speakerLanguages?: string[];
  /** A Kokoro's voices' names in speaker-id order, when known: voice design chooses among them (design/voice-recipe.ts). */
  speakerNames?: string[];
}

export const SHERPA_TTS_LIMITS: ModelLimits = { max_file_bytes: null, max_audio_seconds: null, max_text_chars: 5000 };

const REQUIRED: Record<TtsFamily, string[]> = {
  vits: ['model', 'tokens'],
  piper: ['model', 'tokens', 'dataDir'],
  kokoro: ['model', 'voices', 'tokens', 'dataDir'],
  matcha: ['acousticModel', 'vocoder', 'tokens'],
  kitten: ['model', 'voices', 'tokens', 'dataDir'],
};
const ALLOWED: Record<TtsFamily, string[]> = {
  vits: ['model', 'tokens', 'lexicon', 'dataDir', 'dictDir'],
  piper: ['model', 'tokens', 'dataDir', 'lexicon'],
  kokoro: ['model', 'voices', 'tokens', 'dataDir', 'lexicon', 'lexiconZh', 'dictDir'],
  matcha: ['acousticModel', 'vocoder', 'tokens', 'lexicon', 'dataDir', 'dictDir'],
  kitten: ['model', 'voices', 'tokens', 'dataDir'],
};

export function isTtsFamily(value: string): value is TtsFamily {
  return (TTS_FAMILIES as readonly string[]).includes(value);
}

export function ttsFamilyDefinition(
  family: TtsFamily,
  pkg: TtsPackage,
): Pick<ModelDefinition, 'engine' | 'engineConfig' | 'paramsSchema' | 'limits' | 'live' | 'acceptsSpeed' | 'languages'> {
  if (!isTtsFamily(family)) throw new Error(`unknown TTS family "${String(family)}" (known: ${TTS_FAMILIES.join(', ')})`);
  const missing = REQUIRED[family].filter((role) => !pkg.files[role]);
  if (missing.length > 0) throw new Error(`${pkg.id}: ${family} voice package lacks ${missing.join(', ')}`);
  if ((family === 'vits' || family === 'matcha') && !pkg.files.lexicon && !pkg.files.dataDir && !characterLevel(family, pkg)) {
    throw new Error(`${pkg.id}: a ${family} voice needs a lexicon or an espeak-ng dataDir`);
  }
  const files: Record<string, string> = {};
  for (const [role, file] of Object.entries(pkg.files)) {
    if (!ALLOWED[family].includes(role)) throw new Error(`${pkg.id}: unknown file role "${role}" for ${family}`);
    files[role] = isAbsolute(file) ? file : join(pkg.dir, file);
  }
  // Kokoro v1.0 reads its lexicons as one comma-separated list (English, then Chinese).
  if (files.lexiconZh) {
    files.lexicon = [files.lexicon, files.lexiconZh].filter(Boolean).join(',');
    delete files.lexiconZh;
  }
  // Piper voices are VITS models that phonemize with espeak-ng data.
  const model = { [family === 'piper' ? 'vits' : family]: files };
  const numSpeakers = Math.max(1, Math.floor(pkg.numSpeakers ?? 1));
  const names = pkg.speakerNames?.length === numSpeakers ? pkg.speakerNames : undefined;
  const multilingual = family === 'kokoro' && isMultilingualKokoro(names);
  // Kokoro v0.19's export names no speakers in its metadata; its eleven are known (tts-voices.ts).
  const kokoroNames = names ?? (family === 'kokoro' && numSpeakers === KOKORO_V019_SPEAKERS.length ? [...KOKORO_V019_SPEAKERS] : undefined);
  const engineConfig: SherpaTtsEngineConfig = {
    family,
    model,
    numSpeakers,
    sampleRate: pkg.sampleRate ?? null,
    maxTextChars: SHERPA_TTS_LIMITS.max_text_chars!,
    ...(multilingual ? { speakerLanguages: names!.map((name) => kokoroVoiceLanguage(name)?.espeak ?? 'en-us') } : {}),
    ...(family === 'kokoro' && kokoroNames ? { speakerNames: kokoroNames } : {}),
  };
  const spoken = multilingual ? [...new Set(names!.map((name) => kokoroVoiceLanguage(name)?.code ?? 'en'))] : null;
  return {
    engine: 'sherpa-tts',
    engineConfig: engineConfig as unknown as Record<string, unknown>,
    // An imported voice lists no languages: its Piper config or ONNX metadata tells (voice-languages.ts).
    languages: spoken ?? voiceLanguages(files.model ?? files.acousticModel, pkg.languages),
    paramsSchema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        ...(numSpeakers > 1
          ? { speaker: speakerParam(numSpeakers, names) }
          : {}),
        ...(family === 'kokoro' && numSpeakers > 1 && kokoroNames ? { voice: SAVED_VOICE_PARAM } : {}),
        speed: SPEED_SCHEMA,
        ...OUTPUT_PARAMS_SCHEMA,
      },
      allOf: [outputFormatRules(engineConfig.sampleRate)],
    },
    limits: SHERPA_TTS_LIMITS,
    live: true,
    acceptsSpeed: true,
  };
}

/** A multi-speaker Kokoro speaks a saved designed voice too (docs/voices.md): its id instead of a speaker. */
const SAVED_VOICE_PARAM = {
  type: 'string',
  pattern: '^voice_[0-9A-Za-z]+$',
  description: "A saved designed voice's id (GET /v1/voices), designed on this model: speaks in that voice instead of `speaker`.",
};

/**
 * The `speaker` param: an id; with the speakers' names known, `x-labels` names each (with its language for Kokoro's
 * scheme, e.g. `ef_dora (Spanish, female)`) and `x-languages` gives its language code, so a client lists the voices
 * per language (tts-voices.ts).
 */
function speakerParam(count: number, names: string[] | undefined): Record<string, unknown> {
  const param: Record<string, unknown> = { type: 'integer', minimum: 0, maximum: count - 1, default: 0, description: `Speaker id, 0–${count - 1}.` };
  if (!names) return param;
  const labels: Record<string, string> = {};
  const languages: Record<string, string> = {};
  names.forEach((name, i) => {
    labels[String(i)] = kokoroVoiceLabel(name);
    const language = kokoroVoiceLanguage(name);
    if (language) languages[String(i)] = language.code;
  });
  return { ...param, 'x-labels': labels, ...(Object.keys(languages).length > 0 ? { 'x-languages': languages } : {}) };
}

/**
 * A VITS that spells its text letter by letter from tokens.txt (Coqui's Common Voice exports): no lexicon needed. A
 * package not downloaded yet is given the benefit of the doubt (its layout is checked when it is installed).
 */
function characterLevel(family: TtsFamily, pkg: TtsPackage): boolean {
  const model = pkg.files.model;
  if (family !== 'vits' || !model) return false;
  const path = isAbsolute(model) ? model : join(pkg.dir, model);
  return !existsSync(path) || onnxMetadataOrEmpty(path).frontend === 'characters';
}
