/**
 * A job's input files and where they are stored. When a job is accepted, the files it names under the storage root
 * (an upload, a live recording, a voice reference) are kept in storage and the row names them as storage says
 * (object-keys.ts: their paths in folder mode, exactly as before; storage-relative keys with a bucket). The node that
 * runs the job holds local copies for the run (fetched into its cache from the bucket), whatever node accepted it.
 * Files outside the storage root (a watched folder's recording) are named by their path and read where they are.
 */
import type { EngineInput } from '../../engines/engine-types.js';
import { isStorageKey } from '../../store/objects/object-keys.js';
import type { StoredFiles } from '../../store/objects/stored-files.js';

const FILE_FIELDS = ['filePath', 'referencePath'] as const;

/** The input as a row keeps it, and the names of the files this call put in storage (to delete on a replay). */
export async function keepInput(files: StoredFiles, input: EngineInput): Promise<{ input: EngineInput; kept: string[] }> {
  if (files.kind === 'folder') return { input, kept: [] };
  const kept: string[] = [];
  const stored = { ...input };
  for (const field of FILE_FIELDS) {
    const path = input[field];
    // Already a key (a retried job's input), or a file outside storage: named as it is.
    if (!path || isStorageKey(path) || files.nameOf(path) === null) continue;
    const name = await files.keep(path);
    stored[field] = name;
    kept.push(name);
  }
  return { input: stored, kept };
}

/** The stored input with local paths for a run; `release` lets the cache remove the copies again. */
export async function holdInput(files: StoredFiles, input: EngineInput): Promise<{ input: EngineInput; release(): void }> {
  if (files.kind === 'folder') return { input, release: () => undefined };
  const releases: (() => void)[] = [];
  const local = { ...input };
  try {
    for (const field of FILE_FIELDS) {
      const name = input[field];
      if (!name) continue;
      const held = await files.hold(name);
      releases.push(held.release);
      local[field] = held.path;
    }
  } catch (error) {
    for (const release of releases) release();
    throw error;
  }
  return { input: local, release: () => releases.forEach((release) => release()) };
}

/** Deletes files a declined or replayed request had put in storage; a failure leaves an object the sweep can't see. */
export async function dropKept(files: StoredFiles, kept: readonly string[]): Promise<void> {
  for (const name of kept) await files.remove(name).catch(() => undefined);
}
