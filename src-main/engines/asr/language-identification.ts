/**
 * Spoken-language identification for recognizers that are told their language rather than detecting it (Canary):
 * sherpa-onnx's SpokenLanguageIdentification runs a multilingual Whisper's encoder and one decoder step over up to
 * 30 s of audio and names the language token it ranks first. A job with `language` omitted (auto) asks it once, on
 * its first spoken segment, and recognises the whole recording in that language — the way Whisper keeps the
 * language of its first segments (spoken-language.ts). One model per worker process.
 */
import { JobError } from '../../common/errors.js';
import { loadSherpa } from './sherpa-native.js';
import type { SherpaOfflineStream } from './sherpa-native.js';

interface SherpaLanguageId {
  createStream(): SherpaOfflineStream;
  compute(stream: SherpaOfflineStream): string;
}

/** Whisper reads at most 30 s; sherpa-onnx keeps the first 29.5 s and logs that it dropped the rest. */
const MAX_SECONDS = 29;
const SAMPLE_RATE = 16_000;

let loaded: { key: string; model: SherpaLanguageId } | undefined;

function model(files: { encoder: string; decoder: string }): SherpaLanguageId {
  const key = `${files.encoder}\n${files.decoder}`;
  if (loaded?.key !== key) {
    const sherpa = loadSherpa() as unknown as { SpokenLanguageIdentification: new (config: Record<string, unknown>) => SherpaLanguageId };
    try {
      loaded = { key, model: new sherpa.SpokenLanguageIdentification({ whisper: { encoder: files.encoder, decoder: files.decoder }, numThreads: 1, debug: 0 }) };
    } catch (cause) {
      throw new JobError('engine_failed', `the spoken-language identification model could not be loaded: ${(cause as Error).message}`, { cause });
    }
  }
  return loaded.model;
}

/** The language code heard in `samples` (16 kHz), or null when the model names none. */
export function identifyLanguage(files: { encoder: string; decoder: string }, samples: Float32Array): string | null {
  if (samples.length === 0) return null;
  const lid = model(files);
  try {
    const stream = lid.createStream();
    stream.acceptWaveform({ samples: samples.subarray(0, MAX_SECONDS * SAMPLE_RATE), sampleRate: SAMPLE_RATE });
    const code = lid.compute(stream).trim().toLowerCase();
    return code === '' ? null : code;
  } catch (cause) {
    throw new JobError('engine_failed', `spoken-language identification failed: ${(cause as Error).message}`, { cause });
  }
}
