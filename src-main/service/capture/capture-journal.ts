/**
 * What a running capture keeps beside its recording, so that a crash loses no more than the last chunk
 * (docs/capture.md): `<id>.capture.json` (written once at the start: which account, model, devices, when) and
 * `<id>.capture.jsonl` (one line per final of either side, written and synced with each chunk of the recording).
 * Both sit in the account's dictations folder next to `<id>.capture.wav`; when the capture has become a job they are
 * deleted. Left behind, they are what capture-recovery.ts turns into the job at the next start.
 */
import { closeSync, fdatasyncSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { CaptureSide } from '../../common/capture-protocol.js';
import type { TranscriptWord } from '../../common/api-types.js';

export const CAPTURE_MANIFEST_SUFFIX = '.capture.json';
export const CAPTURE_FINALS_SUFFIX = '.capture.jsonl';
export const CAPTURE_RECORDING_SUFFIX = '.capture.wav';

export interface CaptureManifest {
  id: string;
  accountId: string;
  modelId: string;
  language: string | null;
  createdAt: string;
  sampleRate: number;
  devices: Record<CaptureSide, string>;
}

/** A final of one side, as the journal and the transcript hold it (times in seconds of the recording). */
export interface CaptureFinal {
  side: CaptureSide;
  segmentId: number;
  start: number;
  end: number;
  text: string;
  words?: TranscriptWord[];
  /** The other side's provisional speaker, when told live ("Other side 2"; capture-speakers.ts). */
  speaker?: string;
}

export function capturePaths(dir: string, id: string): { manifest: string; finals: string; recording: string } {
  return { manifest: join(dir, `${id}${CAPTURE_MANIFEST_SUFFIX}`), finals: join(dir, `${id}${CAPTURE_FINALS_SUFFIX}`), recording: join(dir, `${id}${CAPTURE_RECORDING_SUFFIX}`) };
}

export class CaptureJournal {
  private readonly fd: number;
  private pending: string[] = [];

  constructor(
    private readonly dir: string,
    readonly manifest: CaptureManifest,
  ) {
    const paths = capturePaths(dir, manifest.id);
    writeFileSync(paths.manifest, JSON.stringify(manifest), { mode: 0o600, flag: 'wx' });
    const manifestFd = openSync(paths.manifest, 'r');
    fdatasyncSync(manifestFd);
    closeSync(manifestFd);
    this.fd = openSync(paths.finals, 'a', 0o600);
  }

  /** Keeps a final for the next flush. */
  add(final: CaptureFinal): void {
    this.pending.push(`${JSON.stringify(final)}\n`);
  }

  /** Writes the finals kept so far and syncs them (called with each chunk of the recording). */
  flush(): void {
    if (this.pending.length > 0) {
      const text = Buffer.from(this.pending.join(''));
      this.pending = [];
      writeSync(this.fd, text);
    }
    fdatasyncSync(this.fd);
  }

  close(): void {
    closeSync(this.fd);
  }

  /** The capture became a job: the manifest and the finals go (the recording became the job's). */
  remove(): void {
    const paths = capturePaths(this.dir, this.manifest.id);
    rmSync(paths.manifest, { force: true });
    rmSync(paths.finals, { force: true });
  }
}

/** The finals a journal holds; a line cut by a crash (the last one) is left out. */
export function readFinals(path: string): CaptureFinal[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  const finals: CaptureFinal[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      finals.push(JSON.parse(line) as CaptureFinal);
    } catch {
      // A line cut short by the crash.
    }
  }
  return finals;
}
