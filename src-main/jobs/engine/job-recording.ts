/**
 * The recording behind a transcription, for GET /v1/speech-to-text/{id}/audio (the workbench plays it after a
 * relaunch, or when a library search opens an older job). Where it is kept:
 * - an uploaded file (local or forwarded to a hosted service): the job's input, in `<data-dir>/uploads`, deleted by
 *   recording retention (`recordings_hours`, job-maintenance.ts sweepUploads → `input_purged_at`);
 * - a live dictation: the job's input names its `dictation.wav`, which is also its audio artifact, deleted when that
 *   link expires (one day, sweepArtifacts);
 * - a hosted dictation: no input; the recording is the audio artifact downloaded when the hosted job settled.
 * With object storage the rows name keys, and the file is fetched into this node's cache first.
 * The first of those that still exists is served, typed from its first bytes. Nothing left → `gone` (410) naming
 * why; a job that never had a recording on this device (a hosted dictation not settled yet) → `none`.
 */
import { open, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { SNIFF_BYTES, sniffAudioType } from '../../common/audio-sniff.js';
import type { EngineInput } from '../../engines/engine-types.js';
import type { StoreRepos } from '../../store/store.js';
import type { JobRow } from '../../store/jobs-repo.js';
import type { StoredFiles } from '../../store/objects/stored-files.js';

export type JobRecording =
  | { kind: 'file'; path: string; size: number; contentType: string; fileName: string }
  | { kind: 'gone'; message: string }
  | { kind: 'none'; message: string };

/** Types by file name, used only when the first bytes name no known container (raw or unusual formats). */
const TYPES_BY_EXTENSION: Record<string, string> = {
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.flac': 'audio/flac',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.webm': 'audio/webm',
  '.m4a': 'audio/mp4',
  '.mp4': 'audio/mp4',
  '.aac': 'audio/aac',
};

async function readHead(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Size of a regular file, or null when it is gone (or not a file). */
async function fileSize(path: string): Promise<number | null> {
  try {
    const info = await stat(path);
    return info.isFile() ? info.size : null;
  } catch {
    return null;
  }
}

function inputOf(row: JobRow): EngineInput {
  try {
    return JSON.parse(row.input_json) as EngineInput;
  } catch {
    return {};
  }
}

/** The recording of a transcription row the caller has already checked is the account's (see the docblock). */
export async function jobRecording(repos: Pick<StoreRepos, 'artifacts' | 'remoteJobs'>, files: StoredFiles, row: JobRow): Promise<JobRecording> {
  const input = inputOf(row);
  const artifacts = (await repos.artifacts.ofJob(row.id)).filter((a) => a.content_type.startsWith('audio/'));
  const candidates: { path: string; fileName: string; declared: string | null }[] = [];
  if (input.filePath) candidates.push({ path: input.filePath, fileName: input.fileName ?? 'recording', declared: null });
  for (const artifact of artifacts) candidates.push({ path: artifact.path, fileName: artifact.file_name, declared: artifact.content_type });

  for (const stored of candidates) {
    const path = await files.local(stored.path).catch(() => null); // an object no longer in the bucket: gone
    if (path === null) continue;
    const candidate = { ...stored, path };
    const size = await fileSize(candidate.path);
    if (size === null) continue;
    let head: Uint8Array;
    try {
      head = await readHead(candidate.path);
    } catch {
      continue; // vanished between stat and open
    }
    const contentType =
      sniffAudioType(head) ?? TYPES_BY_EXTENSION[extname(candidate.fileName).toLowerCase()] ?? candidate.declared ?? 'application/octet-stream';
    return { kind: 'file', path: candidate.path, size, contentType, fileName: candidate.fileName };
  }

  if (row.input_purged_at) {
    return { kind: 'gone', message: `the recording of this job was deleted by recording retention on ${row.input_purged_at} (Settings → retention keeps recordings a chosen number of hours); the transcript remains` };
  }
  if (candidates.length > 0) {
    return {
      kind: 'gone',
      message: artifacts.some((a) => a.deleted_at !== null)
        ? 'the recording of this job was kept one day with its download link and has been deleted; the transcript remains'
        : 'the recording of this job is no longer on this device; the transcript remains',
    };
  }
  return {
    kind: 'none',
    message: (await repos.remoteJobs.get(row.id))
      ? 'this transcription ran on a hosted service and no copy of its recording is on this device (yet: a hosted dictation’s recording arrives when its job succeeds)'
      : 'this transcription has no recording on this device',
  };
}
