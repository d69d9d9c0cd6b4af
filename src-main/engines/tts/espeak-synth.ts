/**
 * eSpeak NG compiled to JavaScript by Emscripten (@echogarden/espeak-ng-emscripten, GPL-3.0; wasm2js: no WebAssembly
 * API is used). One instance per thread: synthesis is synchronous and streams 16-bit chunks through a callback. It
 * cannot crash the process; a long sentence blocks the calling thread, so the live service runs this in worker
 * threads (engines/live/espeak-thread-pool.ts).
 */
import { JobError } from '../../common/errors.js';
import { ESPEAK_DATA_DIR, espeakVoiceCatalogue, voiceForLanguage, type EspeakVoice } from './espeak-voices.js';

/** eSpeak's own sample rate. */
export const ESPEAK_SAMPLE_RATE = 22050;
/** eSpeak's words-per-minute at speed 1; speed s maps to round(s · 175) wpm (eSpeak accepts 80–450). */
export const ESPEAK_BASE_RATE_WPM = 175;

export interface EspeakVoiceSettings {
  /** Voice id from the catalogue (espeak-voices.ts). Default 'en-us'. */
  voice?: string;
  /** A language code resolved to a voice; when given it takes precedence over `voice`. */
  language?: string;
  /** A variant name (`f3`, `m1`, `whisper`, …). Default: the voice's own. */
  speaker?: string;
  /** 0.5–2, default 1. */
  speed?: number;
  /** 0–100, default 50 (eSpeak's default). */
  pitch?: number;
}

export const DEFAULT_ESPEAK_VOICE = 'en-us';

interface EspeakWorker {
  set_voice(name: string): number;
  set_rate(wpm: number): void;
  set_pitch(pitch: number): void;
  synthesize(text: string, callback: (audio: Int16Array, events: unknown[]) => boolean): void;
}

/** The part of Emscripten's file system (the module's `FS`) used here. */
interface EmscriptenFs {
  rename(from: string, to: string): void;
  symlink(target: string, path: string): void;
}

// The package ships no type declarations: a non-literal specifier keeps its `any` local to this file.
const ESPEAK_PACKAGE: string = '@echogarden/espeak-ng-emscripten';
/** The folders eSpeak lists voices from: its languages and its variants. */
const VOICE_FOLDERS = [`${ESPEAK_DATA_DIR}/lang`, `${ESPEAK_DATA_DIR}/voices`];
let workerPromise: Promise<EspeakWorker> | undefined;

async function loadWorker(): Promise<EspeakWorker> {
  const mod = (await import(ESPEAK_PACKAGE)) as {
    default: () => Promise<{ eSpeakNGWorker: new () => EspeakWorker; FS: EmscriptenFs }>;
  };
  const m = await mod.default();
  const worker = withVoiceFoldersHidden(m.FS, () => new m.eSpeakNGWorker());
  addLowerCaseVoicePaths(m.FS);
  return worker;
}

/**
 * espeak_ng_SetVoiceByName looks for the voice's file under the name in lower case first, and lists every voice only
 * when there is none: 15 voices' files have capitals (`gmw/en-US`, the default voice), so each gets a link in lower
 * case beside it and every voice loads from its file directly. A link that cannot be made leaves that voice to be
 * found by the list, as before.
 */
function addLowerCaseVoicePaths(fs: EmscriptenFs): void {
  for (const { identifier } of espeakVoiceCatalogue().voices) {
    const lower = identifier.toLowerCase();
    if (lower === identifier) continue;
    try {
      fs.symlink(`${ESPEAK_DATA_DIR}/lang/${identifier}`, `${ESPEAK_DATA_DIR}/lang/${lower}`);
    } catch {
      // Already there, or not where this code expects: found by the list instead.
    }
  }
}

/**
 * The package's worker lists every voice eSpeak ships as it is made (reading ~375 voice files through Emscripten's file
 * system: most of a cold engine worker's eSpeak start, 50-130 ms), a list Voxdesk never reads: a voice is set by its
 * file's path, which eSpeak loads directly (addLowerCaseVoicePaths), and the catalogue is read from the data package
 * itself (espeak-voices.ts). So the voice folders are out of sight while it is made, and back at once after; eSpeak
 * lists them again itself should it ever need the list. A layout this code does not know is left as it is.
 */
function withVoiceFoldersHidden<T>(fs: EmscriptenFs, make: () => T): T {
  const hidden: string[] = [];
  try {
    for (const folder of VOICE_FOLDERS) {
      fs.rename(folder, `${folder}.hidden`);
      hidden.push(folder);
    }
  } catch {
    // Not where this code expects: the voices are listed as the package does it, only slower.
  }
  try {
    return make();
  } finally {
    for (const folder of hidden.reverse()) fs.rename(`${folder}.hidden`, folder);
  }
}

/** Resolves settings to an eSpeak voice name (`gmw/en-US+f3`); unknown values raise JobError invalid_params. */
export function resolveEspeakVoice(settings: EspeakVoiceSettings): { voice: EspeakVoice; name: string } {
  const catalogue = espeakVoiceCatalogue();
  let voice: EspeakVoice | undefined;
  if (settings.language !== undefined && settings.language !== '') {
    voice = voiceForLanguage(settings.language);
    if (!voice) throw new JobError('invalid_params', `no eSpeak NG voice speaks language "${settings.language}"`);
  } else {
    const id = (settings.voice ?? DEFAULT_ESPEAK_VOICE).toLowerCase();
    voice = catalogue.voices.find((v) => v.id === id);
    if (!voice) throw new JobError('invalid_params', `unknown eSpeak NG voice "${settings.voice}"`);
  }
  if (settings.speaker !== undefined && !catalogue.variants.includes(settings.speaker)) {
    throw new JobError('invalid_params', `unknown eSpeak NG speaker variant "${settings.speaker}"`);
  }
  return { voice, name: settings.speaker ? `${voice.identifier}+${settings.speaker}` : voice.identifier };
}

export class EspeakSynth {
  private constructor(private readonly worker: EspeakWorker) {}

  /** Loads eSpeak once per thread (~85 ms cold, on a quiet machine). */
  static async create(): Promise<EspeakSynth> {
    workerPromise ??= loadWorker();
    return new EspeakSynth(await workerPromise);
  }

  readonly sampleRate = ESPEAK_SAMPLE_RATE;

  /** Applies voice, speed and pitch; call before synthesize(). */
  configure(settings: EspeakVoiceSettings): void {
    const { name } = resolveEspeakVoice(settings);
    const speed = settings.speed ?? 1;
    const pitch = settings.pitch ?? 50;
    if (!(speed >= 0.5 && speed <= 2)) throw new JobError('invalid_params', 'speed must be between 0.5 and 2');
    if (!(pitch >= 0 && pitch <= 100)) throw new JobError('invalid_params', 'pitch must be between 0 and 100');
    if (this.worker.set_voice(name) !== 0) throw new JobError('invalid_params', `eSpeak NG could not load voice "${name}"`);
    this.worker.set_rate(Math.round(ESPEAK_BASE_RATE_WPM * speed));
    this.worker.set_pitch(Math.round(pitch));
  }

  /**
   * Speaks one piece of text synchronously. `onChunk` receives each 16-bit chunk as it is made; returning true stops
   * synthesis early. Returns every sample made (Float32, -1..1).
   */
  synthesize(text: string, onChunk?: (chunk: Int16Array) => boolean | void): Float32Array {
    const chunks: Int16Array[] = [];
    let total = 0;
    this.worker.synthesize(text, (audio) => {
      if (audio.length > 0) {
        chunks.push(audio);
        total += audio.length;
      }
      return onChunk ? onChunk(audio) === true : false;
    });
    const out = new Float32Array(total);
    let offset = 0;
    for (const chunk of chunks) {
      for (let i = 0; i < chunk.length; i++) out[offset + i] = chunk[i]! / 32768;
      offset += chunk.length;
    }
    return out;
  }
}
