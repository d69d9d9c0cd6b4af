/**
 * Every tiny random-weight model of ../shared/models/tiny installed in a running service the way a person installs a
 * model folder: POST /v1/local/models/import, then waiting for the import. With Silero VAD, the pyannote segmentation
 * model and the tiny speaker embedding imported too, every recognizer row offers VAD and speaker labels. For tests
 * that drive every on-device family over HTTP (issue 32).
 */
import { join } from 'node:path';
import type { TestService } from './service.js';
import { SHARED } from './system.js';
import { TINY } from './tiny-archives.js';

/** Catalogue ids of the imported recognizers, by family. */
export const TINY_RECOGNIZERS = {
  whisper: 'tiny-whisper',
  'nemo-ctc': 'tiny-nemo-ctc',
  'nemo-transducer': 'tiny-nemo-tdt',
  'streaming-transducer': 'tiny-zipformer',
  moonshine: 'tiny-moonshine',
  'sense-voice': 'tiny-sense-voice',
} as const;

/** Catalogue ids of the imported voices, by family. */
export const TINY_VOICES = { kokoro: 'tiny-kokoro', vits: 'tiny-vits' } as const;

const FOLDERS: Record<string, string> = {
  [TINY_RECOGNIZERS.whisper]: 'tiny-whisper',
  [TINY_RECOGNIZERS['nemo-ctc']]: 'tiny-nemo-ctc',
  [TINY_RECOGNIZERS['nemo-transducer']]: 'tiny-nemo-tdt',
  [TINY_RECOGNIZERS['streaming-transducer']]: 'tiny-streaming-zipformer',
  [TINY_RECOGNIZERS.moonshine]: 'tiny-moonshine',
  [TINY_RECOGNIZERS['sense-voice']]: 'tiny-sense-voice',
  [TINY_VOICES.kokoro]: 'tiny-kokoro',
  [TINY_VOICES.vits]: 'tiny-vits',
};

const SUPPORT: Record<string, string> = {
  'silero-vad': join(SHARED, 'models', 'silero_vad_v5.onnx'),
  'pyannote-segmentation': join(SHARED, 'models', 'pyannote-segmentation-3-0.int8.onnx'),
  'speaker-embedding': join(TINY, 'tiny-speaker-embedding.onnx'),
};

async function importOne(t: TestService, path: string, id: string, family?: string): Promise<void> {
  const response = await fetch(`${t.url}/v1/local/models/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ path, id, ...(family ? { family } : {}) }),
  });
  if (response.status !== 202) throw new Error(`importing ${path} answered ${response.status}: ${await response.text()}`);
  await t.service.models.whenImported(id);
}

/** Imports the diarization models only (pyannote segmentation and the tiny speaker embedding): speakers are told apart. */
export async function installSpeakerModels(t: TestService): Promise<void> {
  for (const family of ['pyannote-segmentation', 'speaker-embedding']) await importOne(t, SUPPORT[family]!, `support-${family}`, family);
}

/** Imports the support models (unless `support` is false), then every tiny recognizer and voice. */
export async function installTinyModels(t: TestService, options: { support?: boolean } = {}): Promise<void> {
  if (options.support !== false) {
    for (const [family, path] of Object.entries(SUPPORT)) await importOne(t, path, `support-${family}`, family);
  }
  for (const [id, folder] of Object.entries(FOLDERS)) await importOne(t, join(TINY, folder), id);
}
