/**
 * Captures cut short by a crash, a kill -9 or a power cut (docs/capture.md): at the next start each one left in an
 * account's dictations folder (`<id>.capture.json` still there) becomes its job with what was committed — the
 * recording up to its last synced chunk and the finals journalled with it — so at most the last chunk is lost. Its
 * other side is diarized as at a stop (capture-speakers.ts): a capture killed while that ran is diarized again here.
 * The captures are found at start and saved in the background (CaptureService.recover), so that a long meeting's
 * diarization does not hold the service's start.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Job } from '../../common/api-types.js';
import { CAPTURE_SAMPLE_RATE } from '../../engines/capture/capture-types.js';
import { recoverRecording } from '../../engines/capture/chunked-recording.js';
import type { NewDictationJob } from '../../jobs/engine/job-service-types.js';
import { CAPTURE_MANIFEST_SUFFIX, capturePaths, readFinals, type CaptureManifest } from './capture-journal.js';
import { diarizeOtherSide, type CaptureSpeakerDeps } from './capture-speakers.js';
import { captureTranscript } from './capture-transcript.js';
import { meetingJobName } from './meeting-name.js';
import { DICTATIONS_FOLDER } from '../live/dictation-route.js';
import type { Log } from '../../common/log.js';

export interface RecoveredCapture {
  captureId: string;
  job: Job | null;
}

/** A capture an earlier run left unfinished: its account's dictations folder and its id. */
export interface LeftCapture {
  dir: string;
  id: string;
}

/**
 * The captures left unfinished, found at service start before any new capture can begin (a running capture's files
 * look the same).
 */
export function findLeftCaptures(uploadsDir: string): LeftCapture[] {
  const left: LeftCapture[] = [];
  for (const account of existsSync(uploadsDir) ? readdirSync(uploadsDir) : []) {
    const dir = join(uploadsDir, account, DICTATIONS_FOLDER);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (name.endsWith(CAPTURE_MANIFEST_SUFFIX)) left.push({ dir, id: name.slice(0, -CAPTURE_MANIFEST_SUFFIX.length) });
    }
  }
  return left;
}

/** Saves each left capture as its job; `signal` (a shutdown) leaves the rest, and one being diarized, to the next start. */
export async function recoverCaptures(
  left: readonly LeftCapture[],
  recordJob: (input: NewDictationJob) => Job | Promise<Job>,
  log: Log,
  speakers: CaptureSpeakerDeps,
  signal?: AbortSignal,
): Promise<RecoveredCapture[]> {
  const recovered: RecoveredCapture[] = [];
  for (const { dir, id } of left) {
    if (signal?.aborted) break;
    const paths = capturePaths(dir, id);
    try {
      recovered.push({ captureId: id, job: await recoverOne(paths, recordJob, speakers, log, signal) });
    } catch (error) {
      if (signal?.aborted) break;
      log.info(`capture ${id} left by an earlier run could not be saved: ${(error as Error).message}; its files stay in ${dir}`);
      continue;
    }
    rmSync(paths.manifest, { force: true });
    rmSync(paths.finals, { force: true });
  }
  return recovered;
}

async function recoverOne(
  paths: ReturnType<typeof capturePaths>,
  recordJob: (input: NewDictationJob) => Job | Promise<Job>,
  speakers: CaptureSpeakerDeps,
  log: Log,
  signal?: AbortSignal,
): Promise<Job | null> {
  let manifest: CaptureManifest;
  try {
    manifest = JSON.parse(readFileSync(paths.manifest, 'utf8')) as CaptureManifest;
  } catch {
    // The manifest is written and synced before any audio: one that cannot be read had no audio behind it.
    rmSync(paths.recording, { force: true });
    return null;
  }
  const bytes = existsSync(paths.recording) ? recoverRecording(paths.recording, 2) : 0;
  if (bytes === 0) {
    rmSync(paths.recording, { force: true });
    return null;
  }
  const duration = bytes / 4 / CAPTURE_SAMPLE_RATE;
  const finals = readFinals(paths.finals);
  const granularity = finals.some((f) => f.words?.length) ? 'word' : 'segment';
  // The other side is diarized here as it would have been at the stop (a capture killed during that stage included).
  const otherSide = await diarizeOtherSide(paths.recording, manifest.accountId, speakers, log, signal);
  return recordJob({
    accountId: manifest.accountId,
    modelId: manifest.modelId,
    name: `${meetingJobName(new Date(manifest.createdAt))} (recovered)`,
    language: manifest.language,
    params: { response_format: 'verbose_json', timestamp_granularity: granularity, ...(manifest.language ? { language: manifest.language } : {}) },
    result: captureTranscript(finals, { duration, language: manifest.language, granularity }, otherSide),
    durationSeconds: duration,
    recording: { path: paths.recording, sampleRate: CAPTURE_SAMPLE_RATE, channels: 2 },
    voices: otherSide.voices,
  });
}
