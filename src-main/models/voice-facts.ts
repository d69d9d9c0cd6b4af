/**
 * Speakers and sample rate of an installed voice, for its catalogue row (the `speaker` param's range, the output
 * rate): Piper voices ship `<model>.onnx.json`; sherpa-onnx exports (VITS, Kokoro, Matcha) carry `n_speakers` and
 * `sample_rate` in their ONNX metadata. Unknown fields are left out. Read once per model file per process (the files
 * of an installed package do not change), when the catalogue first lists the voice.
 */
import { existsSync, readFileSync } from 'node:fs';
import { onnxMetadataOrEmpty } from '../engines/onnx-metadata.js';

export interface VoiceFacts {
  numSpeakers?: number;
  sampleRate?: number;
  /** The speakers' names in id order (`speaker_names` of Kokoro and Kitten exports). */
  speakerNames?: string[];
}

const known = new Map<string, VoiceFacts>();

export function voiceFacts(modelPath: string | undefined): VoiceFacts {
  if (!modelPath) return {};
  const seen = known.get(modelPath);
  if (seen) return seen;
  let numSpeakers: unknown;
  let sampleRate: unknown;
  if (existsSync(`${modelPath}.json`)) {
    try {
      const json = JSON.parse(readFileSync(`${modelPath}.json`, 'utf8')) as { num_speakers?: unknown; audio?: { sample_rate?: unknown } };
      numSpeakers = json.num_speakers;
      sampleRate = json.audio?.sample_rate;
    } catch {
      // a broken .onnx.json: fall back to the model's metadata
    }
  }
  if (typeof numSpeakers !== 'number' || typeof sampleRate !== 'number') {
    const meta = onnxMetadataOrEmpty(modelPath);
    if (typeof numSpeakers !== 'number' && /^\d+$/.test(meta.n_speakers ?? '')) numSpeakers = Number(meta.n_speakers);
    if (typeof sampleRate !== 'number' && /^\d+$/.test(meta.sample_rate ?? '')) sampleRate = Number(meta.sample_rate);
  }
  const names = (onnxMetadataOrEmpty(modelPath).speaker_names ?? '').split(',').map((n) => n.trim()).filter(Boolean);
  const facts = {
    ...(typeof numSpeakers === 'number' && numSpeakers >= 1 ? { numSpeakers } : {}),
    ...(names.length > 0 && names.length === numSpeakers ? { speakerNames: names } : {}),
    ...(typeof sampleRate === 'number' && sampleRate > 0 ? { sampleRate } : {}),
  };
  if (existsSync(modelPath)) known.set(modelPath, facts);
  return facts;
}
