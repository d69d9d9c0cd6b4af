/**
 * The voices files that make sherpa-onnx's Kokoro speak designed voices (made in the engine worker or a live voice
 * child, never on the service thread). sherpa-onnx reads a Kokoro's style vectors from `voices.bin` when the model
 * loads and refuses a file whose size is not exactly `n_speakers` × the style shape of the model's metadata
 * ("Corrupted --kokoro-voices … Expected #floats"), so a designed voice cannot be appended to the base voices without
 * rewriting the model. Designed voices take speaker slots of a file of the same size instead (designed-voice-bank.ts):
 * a slot holds the blend Σ weight × base voice (element by element, over all of Kokoro's per-length style rows) or
 * the model's own voice, loaded with the model's other files unchanged. Files are named by a hash of the base file
 * and the slots, so one bank is built once per data dir; the least recently used are removed past MAX_CACHED_FILES.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { JobError } from '../../../common/errors.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../../store/private-files.js';
import type { RecipeVoice } from './voice-recipe.js';

/** Designed voices files kept per data dir (a Kokoro v1.0 file is 27.6 MB). */
export const MAX_CACHED_FILES = 16;

/**
 * Where designed voices files live: `<data dir>/designed-voices`. A job's work folder is `<data dir>/artifacts/<job
 * id>` (jobs/engine/job-service.ts), which is all a worker is told of the data dir.
 */
export function designedVoicesDir(workDir: string): string {
  return join(dirname(dirname(workDir)), 'designed-voices');
}

/** The blend of the base voices (raw float32, `numSpeakers` equal slots) with these weights, as one slot. */
export function blendSlots(base: Float32Array, numSpeakers: number, voices: readonly RecipeVoice[]): Float32Array {
  if (numSpeakers < 1 || base.length % numSpeakers !== 0) {
    throw new JobError('model_unavailable', `the voices file holds ${base.length} numbers, not a whole number of style vectors for ${numSpeakers} speakers`);
  }
  const size = base.length / numSpeakers;
  const out = new Float32Array(size);
  for (const { speaker, weight } of voices) {
    if (!Number.isInteger(speaker) || speaker < 0 || speaker >= numSpeakers) throw new JobError('invalid_params', `the designed voice names speaker ${speaker}, which the model does not have`);
    const offset = speaker * size;
    for (let i = 0; i < size; i++) out[i]! += weight * base[offset + i]!;
  }
  return out;
}

function readFloats(path: string): Float32Array {
  const bytes = readFileSync(path);
  if (bytes.byteLength % 4 !== 0) throw new JobError('model_unavailable', `${path} is not a voices file of 32-bit floats`);
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/**
 * The path of a voices file whose slot s holds the blend `slots[s]`, or the model's own voice s where it is null
 * (made if missing): several designed voices in one model load, each a speaker id (designed-voice-bank.ts). Written
 * to a temporary name and renamed, so a worker killed half-way leaves no half file and two workers building the
 * same one agree.
 */
export function slotVoicesFile(baseVoicesPath: string, numSpeakers: number, slots: readonly (readonly RecipeVoice[] | null)[], cacheDir: string): string {
  const base = statSync(baseVoicesPath);
  const key = createHash('sha256')
    .update(JSON.stringify([baseVoicesPath, base.size, base.mtimeMs, numSpeakers, slots.map((voices) => voices?.map((v) => [v.speaker, v.weight]) ?? null)]))
    .digest('hex')
    .slice(0, 32);
  const path = join(cacheDir, `${key}.bin`);
  if (existsSync(path)) {
    const now = new Date();
    utimesSync(path, now, now); // kept as recently used
    return path;
  }
  mkdirSync(cacheDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const floats = readFloats(baseVoicesPath);
  const size = floats.length / numSpeakers;
  const all = new Float32Array(floats);
  const blends = new Map<readonly RecipeVoice[], Float32Array>();
  slots.forEach((voices, s) => {
    if (!voices) return;
    let blend = blends.get(voices);
    if (!blend) blends.set(voices, (blend = blendSlots(floats, numSpeakers, voices)));
    all.set(blend, s * size);
  });
  const staging = `${path}.${process.pid}.tmp`;
  writeFileSync(staging, new Uint8Array(all.buffer), { mode: PRIVATE_FILE_MODE });
  renameSync(staging, path);
  pruneCache(cacheDir, path);
  return path;
}

/** Removes the least recently used files past MAX_CACHED_FILES (never `keep`). */
function pruneCache(cacheDir: string, keep: string): void {
  const files = readdirSync(cacheDir)
    .filter((name) => name.endsWith('.bin'))
    .map((name) => join(cacheDir, name))
    .filter((path) => path !== keep)
    .map((path) => ({ path, used: statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.used - a.used);
  for (const old of files.slice(MAX_CACHED_FILES - 1)) rmSync(old.path, { force: true });
}
