/**
 * The other side's provisional speakers while a meeting capture runs (capture-speakers.ts, docs/capture.md): the
 * last minute of the other side's audio is kept in memory, and when the recognizer finishes an utterance of it, that
 * utterance's audio (at most its last MAX_EMBEDDED_SECONDS) is embedded in the speaker process and clustered online
 * ("Other side 1", "Other side 2", …). One embedding per utterance at most, none while the previous one is still
 * being computed, and none for an utterance whose audio has already left the minute kept (the recognizer is that far
 * behind): such an utterance is labelled "Other side".
 */
import { CAPTURE_SPEAKERS } from '../../common/capture-protocol.js';
import { CAPTURE_SAMPLE_RATE } from '../../engines/capture/capture-types.js';
import { OnlineSpeakers } from '../../engines/capture/online-speakers.js';
import { SpeakerProcess } from '../../engines/capture/speaker-process.js';
import type { DiarizationModels } from '../../engines/asr/diarization.js';
import type { ProcessLauncher } from '../../engines/worker/process-launcher.js';
import { otherSideLabel } from './capture-speakers.js';

/** Seconds of the other side's audio kept for embedding its utterances. */
export const KEPT_AUDIO_SECONDS = 60;
/** Most of an utterance that is embedded (its end): bounded work per utterance. */
export const MAX_EMBEDDED_SECONDS = 15;
const BYTES_PER_SECOND = CAPTURE_SAMPLE_RATE * 2;

export class LiveSpeakers {
  private readonly process: SpeakerProcess;
  private readonly clusters = new OnlineSpeakers();
  /** The other side's audio kept: blocks of PCM16 with the byte offset each starts at. */
  private kept: { at: number; pcm: Buffer }[] = [];
  private keptBytes = 0;
  private heardBytes = 0;
  private readonly labelling = new Set<Promise<unknown>>();

  constructor(models: DiarizationModels, log: (message: string) => void, launcher?: ProcessLauncher) {
    this.process = new SpeakerProcess(models, log, launcher);
  }

  /** The other side's next aligned block of audio. */
  hear(pcm: Buffer): void {
    this.kept.push({ at: this.heardBytes, pcm });
    this.heardBytes += pcm.length;
    this.keptBytes += pcm.length;
    while (this.kept.length > 1 && this.keptBytes - this.kept[0]!.pcm.length >= KEPT_AUDIO_SECONDS * BYTES_PER_SECOND) this.keptBytes -= this.kept.shift()!.pcm.length;
  }

  /** The provisional speaker of the utterance [start, end) (seconds of the recording). */
  label(start: number, end: number): Promise<string> {
    const audio = this.audio(Math.max(start, end - MAX_EMBEDDED_SECONDS), end);
    if (!audio) return Promise.resolve(CAPTURE_SPEAKERS.system);
    const labelled = this.process.embed(audio).then((embedding) => (embedding ? otherSideLabel(this.clusters.assign(embedding)) : CAPTURE_SPEAKERS.system));
    this.labelling.add(labelled);
    void labelled.finally(() => this.labelling.delete(labelled));
    return labelled;
  }

  /** Waits for the utterances being labelled, then ends the speaker process. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.labelling]);
    this.process.close();
  }

  /** PCM16 of [start, end) when all of it is still kept; null otherwise. */
  private audio(start: number, end: number): Buffer | null {
    const from = Math.max(0, Math.floor(start * CAPTURE_SAMPLE_RATE)) * 2;
    const to = Math.min(this.heardBytes, Math.floor(end * CAPTURE_SAMPLE_RATE) * 2);
    const first = this.kept[0];
    if (!first || from < first.at || to <= from) return null;
    const parts: Buffer[] = [];
    for (const block of this.kept) {
      const a = Math.max(from, block.at);
      const b = Math.min(to, block.at + block.pcm.length);
      if (b > a) parts.push(block.pcm.subarray(a - block.at, b - block.at));
    }
    return Buffer.concat(parts);
  }
}
