/**
 * Captures cut short by a crash, a kill -9 or a power cut (docs/capture.md): at the next start each one left in an
 * account's dictations folder (`<id>.capture.json` still there) becomes its job with what was committed — the
 * recording up to its last synced chunk and the finals journalled with it — so at most the last chunk is lost. Its
 * other side is diarized as at a stop (capture-speakers.ts): a capture killed while that ran is diarized again here.
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

export interface RecoveredCapture {
  captureId: string;
  job: Job | null;
}

export async function recoverCaptures(
  uploadsDir: string,
  recordJob: (input: NewDictationJob) => Job | Promise<Job>,
  log: (message: string) => void,
  speakers: CaptureSpeakerDeps,
): Promise<RecoveredCapture[]> {
  const recovered: RecoveredCapture[] = [];
  for (const account of existsSync(uploadsDir) ? readdirSync(uploadsDir) : []) {
    const dir = join(uploadsDir, account, DICTATIONS_FOLDER);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (!name.endsWith(CAPTURE_MANIFEST_SUFFIX)) continue;
      const id = name.slice(0, -CAPTURE_MANIFEST_SUFFIX.length);
      const paths = capturePaths(dir, id);
      try {
        recovered.push({ captureId: id, job: await recoverOne(paths, recordJob, speakers, log) });
      } catch (error) {
        log(`capture ${id} left by an earlier run could not be saved: ${(error as Error).message}; its files stay in ${dir}`);
        continue;
      }
      rmSync(paths.manifest, { force: true });
      rmSync(paths.finals, { force: true });
    }
  }
  return recovered;
}

async function recoverOne(
  paths: ReturnType<typeof capturePaths>,
  recordJob: (input: NewDictationJob) => Job | Promise<Job>,
  speakers: CaptureSpeakerDeps,
  log: (message: string) => void,
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
  const otherSide = await diarizeOtherSide(paths.recording, manifest.accountId, speakers, log);
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
