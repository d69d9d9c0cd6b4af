/**
 * The Live tab's Dictate mode, apart from its view: one dictation session at a time — the microphone (mic-capture.ts)
 * feeding the dictation socket (dictation-socket.ts) — and the transcript as it forms: each utterance is a segment
 * whose grey partial text is replaced by its final text. Stop ends the input; the service sends the last finals and
 * the job that records the dictation (it then appears in Jobs).
 */
import type { DictationServerMessage } from '$common/dictation-protocol.js';
import { Problem } from '../../shared/problem.svelte.js';
import { CAPTURE_RATE, listMicrophones, MicCapture, type MicDevice } from './mic-capture.js';
import { DictationSocket } from './dictation-socket.js';
import type { ServiceHost } from '../../shared/service/service-host.js';
import type { ChosenModel } from '../../shared/ui/model-choice.svelte.js';

export type DictationPhase = 'idle' | 'starting' | 'listening' | 'finishing';

export interface DictationSegment {
  id: number;
  text: string;
  /** False while the text is a partial (shown grey). */
  final: boolean;
}

export class Dictation {
  phase = $state<DictationPhase>('idle');
  /** Utterances in order: finals, then the one being spoken. */
  segments = $state<DictationSegment[]>([]);
  /** Input level 0..1 (RMS, scaled for the meter). */
  level = $state(0);
  /** What went wrong last (its `text` says it in the person's language); empty while all is well. */
  readonly problem = new Problem();
  /** The job of the last finished dictation. */
  jobId = $state<string | null>(null);
  /** Seconds of audio sent in this session. */
  seconds = $state(0);
  microphones = $state<MicDevice[]>([]);
  /** The chosen microphone's device id; null: the system default. */
  microphone = $state<string | null>(null);
  #socket: DictationSocket | null = null;
  #mic: MicCapture | null = null;
  #closed: (() => void) | null = null;
  /** Segment ids of a session count from 0: a new session's segments follow the ones already shown. */
  #base = 0;

  constructor(
    private readonly host: Pick<ServiceHost, 'api' | 'refreshSoon'>,
    private readonly choice: ChosenModel,
  ) {}


  /** The final text so far (what Copy copies). */
  get text(): string {
    return this.segments
      .filter((s) => s.final)
      .map((s) => s.text.trim())
      .filter(Boolean)
      .join(' ');
  }

  async refreshMicrophones(): Promise<void> {
    this.microphones = await listMicrophones().catch(() => []);
    if (this.microphone && !this.microphones.some((m) => m.id === this.microphone)) this.microphone = null;
  }

  /** The hotkey and the main button: start when idle, stop while listening. */
  async toggle(): Promise<void> {
    if (this.phase === 'idle') await this.start();
    else if (this.phase === 'listening') await this.stop();
  }

  async start(): Promise<void> {
    const modelId = this.choice.modelId();
    if (!modelId || this.phase !== 'idle') return;
    this.phase = 'starting';
    this.problem.clear();
    this.jobId = null;
    this.seconds = 0;
    this.#base = this.segments.reduce((max, s) => Math.max(max, s.id + 1), 0);
    const socket = new DictationSocket(this.host.api.dictationUrl(modelId), {
      onMessage: (message) => this.#onMessage(message),
      onClose: () => this.#onClose(),
    });
    this.#socket = socket;
    try {
      await socket.open(CAPTURE_RATE);
      const mic = new MicCapture({
        onPcm: (pcm) => {
          this.seconds += pcm.byteLength / 2 / CAPTURE_RATE;
          socket.send(pcm);
        },
        onLevel: (rms) => (this.level = Math.min(1, Math.sqrt(rms) * 2.5)),
      });
      this.#mic = mic;
      await mic.start(this.microphone);
      this.phase = 'listening';
      void this.refreshMicrophones();
    } catch (err) {
      this.problem.set(err);
      await this.#mic?.stop();
      this.#mic = null;
      socket.close();
      this.#socket = null;
      this.phase = 'idle';
    }
  }

  /** Stops the microphone and ends the input; resolves once the service has sent the last finals and the job. */
  async stop(): Promise<void> {
    if (this.phase !== 'listening') return;
    this.phase = 'finishing';
    await this.#mic?.stop();
    this.#mic = null;
    this.level = 0;
    const closed = new Promise<void>((resolve) => (this.#closed = resolve));
    this.#socket?.end();
    await closed;
  }

  clear(): void {
    this.segments = [];
    this.jobId = null;
  }

  /** Leaving the tab: the session ends like Stop (its job is recorded). */
  async close(): Promise<void> {
    if (this.phase === 'listening') await this.stop();
    this.#socket?.close();
  }

  #onMessage(message: DictationServerMessage): void {
    switch (message.type) {
      case 'transcript.partial':
        this.#setSegment(message.segment_id, message.text, false);
        break;
      case 'transcript.final':
        this.#setSegment(message.segment_id, message.text, true);
        break;
      case 'session.done':
        this.jobId = message.job_id;
        this.host.refreshSoon();
        break;
      case 'error':
        this.problem.set(message.error);
        break;
      default:
        break;
    }
  }

  #setSegment(segmentId: number, text: string, final: boolean): void {
    const id = this.#base + segmentId;
    const others = this.segments.filter((s) => s.id !== id);
    // An empty final closes an utterance whose partials came to nothing.
    const next = final && text.trim() === '' ? others : [...others, { id, text, final }];
    this.segments = next.sort((a, b) => a.id - b.id);
  }

  async #onClose(): Promise<void> {
    this.#socket = null;
    if (this.#mic) {
      await this.#mic.stop();
      this.#mic = null;
    }
    this.level = 0;
    this.phase = 'idle';
    this.#closed?.();
    this.#closed = null;
  }
}
