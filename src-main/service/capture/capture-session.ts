/**
 * One running meeting capture (docs/capture.md): the microphone and the system's output, each from its source
 * (engines/capture/), kept in step (channel-aligner.ts) and written as the two channels of one recording committed in
 * chunks (chunked-recording.ts, with the journal of finals: capture-journal.ts); each side recognised live on its own
 * stream of the model's warm recognizer (side-recognition.ts), its partials and finals labelled with the side's
 * speaker; a side silent for a minute while the other talks raises a warning (silence-watch.ts). Counted in the
 * account's upload quota like a dictation's recording. Stopping records it as a speech-to-text job through
 * JobService.recordDictation (the same job, billing and recording as a dictation).
 */
import { EventEmitter } from 'node:events';
import { rmSync } from 'node:fs';
import type { Job } from '../../common/api-types.js';
import { CAPTURE_SPEAKERS, type Capture, type CaptureServerMessage, type CaptureSide, type CaptureWarning } from '../../common/capture-protocol.js';
import { ClientSource } from '../../engines/capture/client-source.js';
import { ChannelAligner, type AlignedBlock } from '../../engines/capture/channel-aligner.js';
import { CAPTURE_SAMPLE_RATE, type PcmSource } from '../../engines/capture/capture-types.js';
import { ChunkedRecording } from '../../engines/capture/chunked-recording.js';
import { SilenceWatch } from '../../engines/capture/silence-watch.js';
import type { LiveUtterance } from '../../engines/live/live-recognition-types.js';
import type { NewDictationJob } from '../../jobs/engine/job-service-types.js';
import type { LiveRecognizer } from '../live/dictation-route.js';
import { CaptureJournal, capturePaths, type CaptureFinal, type CaptureManifest } from './capture-journal.js';
import type { CaptureOptions } from './capture-options.js';
import { diarizeOtherSide, NO_SPEAKER_MODELS, type CaptureSpeakerDeps, type OtherSideLabels } from './capture-speakers.js';
import { captureTranscript } from './capture-transcript.js';
import { LiveSpeakers } from './live-speakers.js';
import { meetingJobName } from './meeting-name.js';
import type { Log } from '../../common/log.js';
import { silentSideWarning } from './silent-side-warning.js';
import { sideRecognition } from './side-recognition.js';
import type { RecognizerLink } from '../live/recognizer-link.js';

export interface CaptureSessionInit {
  manifest: CaptureManifest;
  /** The account's dictations folder (uploads/<account>/dictations): the recording stays there as the job's. */
  dir: string;
  recognizer: LiveRecognizer;
  sources: Record<CaptureSide, PcmSource>;
  options: CaptureOptions;
  /** The account's upload quota for the recording (uploads/upload-budget.ts openRecording). */
  openQuota(): Promise<{ add(bytes: number): void; close(): void }>;
  recordJob(input: NewDictationJob): Job | Promise<Job>;
  durable?(): Promise<void>;
  /** Gives back the live session slots the two streams took. */
  release(): void;
  /** Telling the other side's speakers apart (capture-speakers.ts); without it the other side is one speaker. */
  speakers?: CaptureSpeakerDeps;
  log: Log;
}

const SIDES: readonly CaptureSide[] = ['microphone', 'system'];

/** A side's source as the capture shows it, and its level since the last `capture.levels`. */
interface SideState {
  state: 'recording' | 'ended';
  error: string | null;
  level: { sumSq: number; count: number };
}

export class CaptureSession {
  readonly id: string;
  readonly events = new EventEmitter();
  private status: Capture['status'] = 'recording';
  private readonly recording: ChunkedRecording;
  private readonly journal: CaptureJournal;
  private readonly aligner: ChannelAligner;
  private readonly silence: SilenceWatch;
  private readonly sides: Record<CaptureSide, SideState>;
  private readonly recognition: Record<CaptureSide, RecognizerLink>;
  private readonly finals: CaptureFinal[] = [];
  private readonly warnings = new Map<CaptureSide, CaptureWarning>();
  private quota: { add(bytes: number): void; close(): void } | null = null;
  private readonly quotaOpening: Promise<void>;
  private levelsTimer: NodeJS.Timeout | null = null;
  private stopping: Promise<Capture> | null = null;
  private endedAt: string | null = null;
  private jobId: string | null = null;
  private error: Capture['error'] = null;
  /** The other side's provisional speakers (null without the diarization models). */
  private readonly liveSpeakers: LiveSpeakers | null;
  private diarizing = false;
  /** Resolved when the stopped capture starts diarizing its other side (what an impatient stop answers at). */
  private readonly diarizationStarted: Promise<void>;
  private startedDiarizing: () => void = () => undefined;
  /** Aborted by a shutdown: the diarization is left to the next start (capture-recovery.ts). */
  private readonly shutdown = new AbortController();

  constructor(private readonly init: CaptureSessionInit) {
    this.id = init.manifest.id;
    this.diarizationStarted = new Promise((resolve) => (this.startedDiarizing = resolve));
    this.events.setMaxListeners(50);
    const paths = capturePaths(init.dir, this.id);
    this.journal = new CaptureJournal(init.dir, init.manifest);
    this.recording = new ChunkedRecording(paths.recording, {
      sampleRate: CAPTURE_SAMPLE_RATE,
      channels: 2,
      chunkSeconds: init.options.chunkSeconds,
      beforeSync: () => this.journal.flush(),
    });
    const side = (): SideState => ({ state: 'recording', error: null, level: { sumSq: 0, count: 0 } });
    this.sides = { microphone: side(), system: side() };
    this.aligner = new ChannelAligner(CAPTURE_SAMPLE_RATE, (block) => this.onBlock(block));
    this.silence = new SilenceWatch({ sampleRate: CAPTURE_SAMPLE_RATE, silentSeconds: init.options.silentSeconds });
    const models = init.speakers?.models() ?? null;
    this.liveSpeakers = models ? new LiveSpeakers(models, init.log, init.speakers?.launcher) : null;
    this.quotaOpening = init.openQuota().then(
      (ticket) => {
        if (this.status !== 'recording') return ticket.close();
        this.quota = ticket;
        this.countInQuota(this.recording.receivedBytes);
      },
      (error: unknown) => init.log.info(`capture ${this.id}: the upload quota could not be read: ${(error as Error).message}`),
    );
    const recognise = (name: CaptureSide): RecognizerLink =>
      sideRecognition({
        side: name,
        recognizer: init.recognizer,
        accountId: this.accountId,
        language: init.manifest.language,
        recording: () => this.status === 'recording',
        over: () => this.status === 'done' || this.status === 'failed',
        partial: (segmentId, text) => this.send({ type: 'transcript.partial', side: name, speaker: CAPTURE_SPEAKERS[name], segment_id: segmentId, text }),
        final: (segmentId, utterance) => this.onFinal(name, segmentId, utterance),
        error: (code, message) => this.send({ type: 'error', error: { code, message } }),
      });
    this.recognition = { microphone: recognise('microphone'), system: recognise('system') };
    SIDES.forEach((name, index) =>
      init.sources[name].start(
        (pcm) => this.status === 'recording' && this.aligner.push(index as 0 | 1, pcm),
        (reason) => this.onSourceEnded(name, index as 0 | 1, reason),
      ),
    );
    this.levelsTimer = setInterval(() => this.sendLevels(), init.options.levelsIntervalMs);
    this.levelsTimer.unref();
  }

  /** The capture as the API shows it. */
  view(): Capture {
    const seconds = (bytes: number): number => Math.round((bytes / 4 / CAPTURE_SAMPLE_RATE) * 1000) / 1000;
    return {
      id: this.id,
      object: 'capture',
      status: this.status,
      model: this.init.manifest.modelId,
      language: this.init.manifest.language,
      created_at: this.init.manifest.createdAt,
      ended_at: this.endedAt,
      duration_seconds: seconds(this.recording.receivedBytes),
      committed_seconds: seconds(this.recording.committedBytes),
      sources: Object.fromEntries(SIDES.map((name) => [name, { device: this.init.manifest.devices[name], state: this.sides[name].state, error: this.sides[name].error }])) as Capture['sources'],
      warnings: [...this.warnings.values()],
      job_id: this.jobId,
      diarizing: this.diarizing,
      error: this.error,
      realtime_path: `/v1/captures/${this.id}/realtime`,
    };
  }

  get accountId(): string {
    return this.init.manifest.accountId;
  }

  /** What a socket that joins now is sent first: the state, then every final so far (in time order). */
  snapshot(): CaptureServerMessage[] {
    const finals = [...this.finals].sort((a, b) => a.start - b.start);
    return [{ type: 'capture.state', capture: this.view() }, ...finals.map((f) => this.finalMessage(f))];
  }

  /** The source of a side the client records and sends (a `client` device), or null when the service records it. */
  clientSource(side: CaptureSide): ClientSource | null {
    const source = this.init.sources[side];
    return source instanceof ClientSource && this.status === 'recording' ? source : null;
  }

  /** Whether the client sends this side (frames that arrive once the capture is stopping are then simply late). */
  sentByClient(side: CaptureSide): boolean {
    return this.init.sources[side] instanceof ClientSource;
  }

  isRunning(): boolean {
    return this.status === 'recording';
  }

  /**
   * Ends the capture once: the sources stop, what they sent is aligned and committed, the recognizers give their last
   * finals (bounded by endTimeoutMs), and the recording with its transcript becomes a speech-to-text job.
   */
  stop(): Promise<Capture> {
    this.stopping ??= this.runStop();
    return this.stopping;
  }

  /**
   * What `POST /v1/captures/{id}/stop` answers: the capture once it is saved as its job, or, when its other side is
   * diarized first (minutes on a long meeting), as soon as that starts (`stopping`, `diarizing: true`), so that no
   * client waits on it; the socket and `GET /v1/captures/{id}` follow it to `done` with the job.
   */
  stopAnswer(): Promise<Capture> {
    return Promise.race([this.stop(), this.diarizationStarted.then(() => this.view())]);
  }

  /**
   * The service is shutting down: the capture stops as at a stop, but a diarization of its other side (running or
   * to come) is left to the next start, which saves the capture from its journal (capture-recovery.ts), instead of
   * holding the shutdown for minutes.
   */
  stopForShutdown(): Promise<Capture> {
    this.shutdown.abort();
    return this.stop();
  }

  private async runStop(): Promise<Capture> {
    this.status = 'stopping';
    this.broadcastState();
    for (const name of SIDES) this.init.sources[name].stop();
    this.aligner.flush();
    if (this.levelsTimer) clearInterval(this.levelsTimer);
    await this.quotaOpening;
    await Promise.all(SIDES.map((name) => this.recognition[name].end(this.init.options.endTimeoutMs)));
    await this.liveSpeakers?.close();
    const duration = this.recording.receivedBytes / 4 / CAPTURE_SAMPLE_RATE;
    let job: Job | null = null;
    try {
      this.recording.finish();
      this.journal.flush();
      this.journal.close();
      job = await this.record(duration);
      this.journal.remove();
      if (job) await this.init.durable?.().catch((error: unknown) => this.init.log.info(`capture ${this.id}: ${(error as Error).message}`));
      this.status = 'done';
    } catch (error) {
      if (this.shutdown.signal.aborted && error === this.shutdown.signal.reason) {
        this.init.log.info(`capture ${this.id}: the service stopped before the other side's speakers were told apart; it is saved as a job at the next start`);
        this.error = { code: 'internal_error', message: 'the service stopped before the other side\'s speakers were told apart; the capture is saved as a job at the next start' };
      } else {
        this.init.log.info(`capture ${this.id}: the capture could not be saved as a job: ${(error as Error).stack ?? String(error)}`);
        this.error = { code: 'internal_error', message: `the capture could not be saved as a job: ${(error as Error).message}; its recording stays in the data folder and is saved at the next start` };
      }
      this.status = 'failed';
    }
    this.jobId = job?.id ?? null;
    this.endedAt = new Date().toISOString();
    this.quota?.close();
    this.init.release();
    this.broadcastState();
    this.send({ type: 'capture.done', job_id: this.jobId, duration_seconds: Math.round(duration * 1000) / 1000 });
    this.events.emit('done');
    return this.view();
  }

  private async record(duration: number): Promise<Job | null> {
    const paths = capturePaths(this.init.dir, this.id);
    if (this.recording.committedBytes === 0) {
      rmSync(paths.recording, { force: true });
      return null;
    }
    const model = this.init.recognizer.model;
    const language = this.init.manifest.language ?? (model.languages.length === 1 ? model.languages[0]! : null);
    const granularity = this.finals.some((f) => f.words?.length) ? 'word' : 'segment';
    const otherSide = await this.tellOtherSideApart(paths.recording);
    return this.init.recordJob({
      accountId: this.accountId,
      modelId: model.id,
      name: meetingJobName(new Date(this.init.manifest.createdAt)),
      language,
      params: { response_format: 'verbose_json', timestamp_granularity: granularity, ...(this.init.manifest.language ? { language: this.init.manifest.language } : {}) },
      result: captureTranscript(this.finals, { duration, language, granularity }, otherSide),
      durationSeconds: duration,
      recording: { path: paths.recording, sampleRate: CAPTURE_SAMPLE_RATE, channels: 2 },
      voices: otherSide.voices,
    });
  }

  /** The job's speakers of the other side (capture-speakers.ts), while the capture says it is diarizing. */
  private async tellOtherSideApart(recording: string): Promise<OtherSideLabels> {
    this.diarizing = Boolean(this.init.speakers?.models()) && !this.shutdown.signal.aborted;
    if (this.diarizing) {
      this.broadcastState();
      this.startedDiarizing();
    }
    try {
      return await diarizeOtherSide(recording, this.accountId, this.init.speakers ?? NO_SPEAKER_MODELS, this.init.log, this.shutdown.signal);
    } finally {
      this.diarizing = false;
    }
  }

  private onBlock(block: AlignedBlock): void {
    const samples = block.microphone.length >> 1;
    const frames = Buffer.alloc(samples * 4);
    for (let i = 0; i < samples; i++) {
      frames.writeInt16LE(block.microphone.readInt16LE(i * 2), i * 4);
      frames.writeInt16LE(block.system.readInt16LE(i * 2), i * 4 + 2);
    }
    try {
      this.recording.append(frames);
    } catch (error) {
      this.fail('internal_error', `the recording could not be written (${(error as Error).message}); the capture stops and what was committed is kept`);
      return;
    }
    if (!this.countInQuota(frames.length)) return;
    for (const name of SIDES) {
      const pcm = name === 'microphone' ? block.microphone : block.system;
      const { level } = this.sides[name];
      for (let i = 0; i < pcm.length; i += 2) {
        const v = pcm.readInt16LE(i) / 32768;
        level.sumSq += v * v;
      }
      level.count += pcm.length >> 1;
      this.recognition[name].write(pcm);
    }
    this.liveSpeakers?.hear(block.system);
    for (const event of this.silence.feed(block.microphone, block.system)) {
      const name = SIDES[event.side]!;
      if (event.type === 'silent') {
        const warning = silentSideWarning(name, event.seconds, this.init.manifest.devices);
        this.warnings.set(name, warning);
        this.send({ type: 'capture.warning', warning });
      } else {
        this.warnings.delete(name);
        this.send({ type: 'capture.warning_cleared', side: name });
      }
    }
    if (this.recording.receivedBytes / 4 / CAPTURE_SAMPLE_RATE >= this.init.options.maxSeconds) {
      this.send({ type: 'error', error: { code: 'audio_too_long', message: `a capture holds at most ${this.init.options.maxSeconds} s of audio; it stops here and is saved` } });
      void this.stop();
    }
  }

  private countInQuota(bytes: number): boolean {
    if (!this.quota) return true;
    try {
      this.quota.add(bytes);
      return true;
    } catch (error) {
      this.fail('upload_quota_exceeded', `${(error as Error).message}; the capture stops here and what was recorded is kept`);
      return false;
    }
  }

  private fail(code: string, message: string): void {
    if (this.status !== 'recording') return;
    this.send({ type: 'error', error: { code, message } });
    void this.stop();
  }

  private onSourceEnded(name: CaptureSide, index: 0 | 1, reason: string | null): void {
    if (this.status !== 'recording') return;
    const side = this.sides[name];
    side.state = 'ended';
    side.error = reason ?? 'the source ended';
    this.init.log.info(`capture ${this.id}: ${side.error}`);
    this.aligner.end(index);
    this.send({ type: 'error', error: { code: 'source_ended', message: `${side.error}; the capture goes on with this side silent` } });
    this.broadcastState();
    if (SIDES.every((n) => this.sides[n].state === 'ended')) void this.stop();
  }

  /** A side's final: kept (journal, transcript) when it has words, sent with the side's speaker. */
  private onFinal(name: CaptureSide, segmentId: number, utterance: LiveUtterance): void {
    const final: CaptureFinal = { side: name, segmentId, start: utterance.start, end: utterance.end, text: utterance.text, ...(utterance.words ? { words: utterance.words } : {}) };
    const spoken = utterance.text.trim() !== '';
    if (spoken) {
      this.finals.push(final);
      this.journal.add(final);
    }
    // The other side's utterance is sent with its provisional speaker (live-speakers.ts), once it has one.
    if (!spoken || name !== 'system' || !this.liveSpeakers) return this.send(this.finalMessage(final));
    void this.liveSpeakers.label(final.start, final.end).then((speaker) => {
      final.speaker = speaker;
      this.send(this.finalMessage(final));
    });
  }

  private finalMessage(f: CaptureFinal): CaptureServerMessage {
    const round = (s: number): number => Math.round(s * 1000) / 1000;
    return { type: 'transcript.final', side: f.side, speaker: f.speaker ?? CAPTURE_SPEAKERS[f.side], segment_id: f.segmentId, text: f.text, start: round(f.start), end: round(f.end) };
  }

  private sendLevels(): void {
    const level = (name: CaptureSide): number => {
      const l = this.sides[name].level;
      const rms = l.count ? Math.sqrt(l.sumSq / l.count) : 0;
      l.sumSq = 0;
      l.count = 0;
      return Math.round(rms * 10000) / 10000;
    };
    this.send({ type: 'capture.levels', microphone: level('microphone'), system: level('system') });
  }

  private broadcastState(): void {
    this.send({ type: 'capture.state', capture: this.view() });
  }

  private send(message: CaptureServerMessage): void {
    this.events.emit('message', message);
  }
}
