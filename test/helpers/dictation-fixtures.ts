/**
 * Live dictation scaffolding shared by the dictation tests and the benchmark: tiny random-weight models of
 * ../shared/models/tiny as live catalogue rows (the streaming Zipformer through OnlineRecognizer, NeMo CTC through
 * Silero VAD), the shared recordings as PCM16, a paced sender and installing Silero VAD through the API.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { asrFamilyDefinition, type AsrFamily, type AsrPackage } from '../../src-main/engines/asr/asr-families.js';
import { decodeWav } from '../../src-main/engines/audio/wav.js';
import { floatToS16le } from '../../src-main/engines/audio/pcm.js';
import type { ModelDefinition, ModelSource } from '../../src-main/engines/model-definition.js';
import type { ModelSourceFactory } from '../../src-main/engines/model-sources.js';
import { SHARED } from './system.js';

export const TINY = join(SHARED, 'models/tiny');
export const SILERO_V5 = join(SHARED, 'models/silero_vad_v5.onnx');
export const JFK_WAV = join(SHARED, 'audio/jfk.wav');
export const JFK_TEXT = 'And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';
/** The tiny streaming Zipformer's text for jfk.wav fed in pieces with a 0.66 s silent tail (models/tiny/README.md). */
export const TINY_STREAMING_JFK_TEXT = 'TOZHHH ARPSRO THEYOY YHPYSCOLSFEP ANDF THEAHMU THESASPYHY';

function row(id: string, family: AsrFamily, pkg: Omit<AsrPackage, 'id'>): ModelDefinition {
  return {
    id,
    name: `${id} (random weights)`,
    description: 'test model',
    capability: 'asr',
    products: ['speech-to-text'],
    provider: 'local',
    status: 'available',
    reason: null,
    download: null,
    ...asrFamilyDefinition(family, { id, ...pkg }),
  };
}

export function tinyStreamingModel(): ModelDefinition {
  const chunk = 'epoch-99-avg-1-chunk-16-left-128.onnx';
  return row('tiny-streaming', 'streaming-transducer', {
    dir: join(TINY, 'tiny-streaming-zipformer'),
    languages: ['en'],
    files: { encoder: `encoder-${chunk}`, decoder: `decoder-${chunk}`, joiner: `joiner-${chunk}`, tokens: 'tokens.txt' },
  });
}

/** Tiny NeMo CTC with Silero VAD: an offline model that runs live. */
export function tinyCtcLiveModel(): ModelDefinition {
  return row('tiny-ctc-live', 'nemo-ctc', {
    dir: join(TINY, 'tiny-nemo-ctc'),
    languages: ['en'],
    files: { model: 'model.onnx', tokens: 'tokens.txt' },
    support: { sileroVad: SILERO_V5 },
  });
}

/** Tiny Whisper without a VAD model: an offline model that cannot run live. */
export function tinyWhisperNoVadModel(): ModelDefinition {
  return row('tiny-whisper-novad', 'whisper', {
    dir: join(TINY, 'tiny-whisper'),
    languages: ['en', 'zh', 'de', 'es', 'ru', 'ko', 'fr', 'ja', 'pt', 'it'],
    files: { encoder: 'encoder.onnx', decoder: 'decoder.onnx', tokens: 'tokens.txt' },
  });
}

export const tinyLiveModelSource: ModelSourceFactory = (): ModelSource => ({
  name: 'tiny-live-models',
  list: () => [tinyStreamingModel(), tinyCtcLiveModel(), tinyWhisperNoVadModel()],
});

/** A WAV file as PCM16 mono little-endian at its own rate (the first channel). */
export function pcmOf(path: string): { pcm: Buffer; sampleRate: number } {
  const wav = decodeWav(readFileSync(path));
  return { pcm: floatToS16le(wav.channels[0]!), sampleRate: wav.sampleRate };
}

/** Silence as PCM16. */
export function silence(seconds: number, sampleRate = 16_000): Buffer {
  return Buffer.alloc(Math.round(seconds * sampleRate) * 2);
}

/**
 * Sends PCM in frames of `frameSeconds`, `speed` times faster than real time (Infinity: all at once); resolves once
 * the last frame is sent.
 */
export async function sendPcm(send: (frame: Buffer) => void, pcm: Buffer, sampleRate: number, options: { frameSeconds?: number; speed?: number } = {}): Promise<void> {
  const frameBytes = Math.round((options.frameSeconds ?? 0.1) * sampleRate) * 2;
  const speed = options.speed ?? Infinity;
  const started = performance.now();
  for (let at = 0; at < pcm.length; at += frameBytes) {
    send(pcm.subarray(at, at + frameBytes));
    if (Number.isFinite(speed)) {
      const due = ((at + frameBytes) / 2 / sampleRate / speed) * 1000;
      const wait = due - (performance.now() - started);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** Installs Silero VAD (from ../shared/models) in a running service through its import route; resolves when installed. */
export async function installSileroVad(url: string, key: string): Promise<void> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const response = await fetch(`${url}/v1/local/models/import`, { method: 'POST', headers, body: JSON.stringify({ path: SILERO_V5, family: 'silero-vad' }) });
  if (response.status !== 202) throw new Error(`importing Silero VAD answered ${response.status}: ${await response.text()}`);
  const { id } = (await response.json()) as { id: string };
  for (let i = 0; i < 600; i++) {
    const state = ((await (await fetch(`${url}/v1/local/models/${id}`, { headers })).json()) as { state: string }).state;
    if (state === 'installed') return;
    if (state !== 'importing') throw new Error(`importing Silero VAD ended ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('importing Silero VAD took more than a minute');
}

/** Words of a text, lower case, without punctuation. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().replace(/[^a-z0-9' ]+/g, ' ').split(/\s+/).filter(Boolean);
}
