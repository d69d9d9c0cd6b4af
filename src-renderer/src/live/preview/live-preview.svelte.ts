/**
 * The Live tab's work, apart from its view: one live speech session for the chosen voice, opened when there is first
 * something to say and reopened when the voice changes; in the desktop app through the bridge (the main process
 * plays it on the sound card), in a browser through the service's WebSocket and Web Audio (live-web-audio.ts). As the
 * person types, each finished sentence is sent at once; Speak sends the rest; Stop cuts the audio. In a browser the
 * chosen voice opens the session with it (the live route's `voice` or `speaker`); another voice opens a new session.
 */
import { Problem } from '../../shared/problem.svelte.js';
import { finishedSentences } from './live-sentences.js';
import { WebAudioLive, type LiveStats } from './live-web-audio.js';
import type { ServiceHost } from '../../shared/service/service-host.js';

export type LivePhase = 'idle' | 'connecting' | 'ready' | 'speaking' | 'closed';

/** The voice and speed currently chosen in the view. */
export interface LiveChoice {
  modelId(): string | undefined;
  speed(): number;
  /** The voice settings of the session (e.g. `{ voice: 'de' }`); none: the model's default voice. */
  voice?(): Record<string, string>;
}

const NO_STATS: LiveStats = { frames: 0, samples: 0, scheduledSeconds: 0, responses: 0 };
/** The sample rate assumed for audio events that arrive before the session says its own. */
const DEFAULT_SAMPLE_RATE = 22050;

export class LivePreview {
  phase = $state<LivePhase>('idle');
  /** What went wrong last (its `text` says it in the person's language); empty while all is well. */
  readonly problem = new Problem();
  stats = $state<LiveStats>(NO_STATS);
  sampleRate = $state<number | null>(null);
  /** How much of the text has been sent: sentences are sent once. */
  sentUpTo = $state(0);
  #web: WebAudioLive | null = null;
  #unsubscribe: (() => void) | null = null;
  /** The model and voice of the open session. */
  #sessionKey: string | null = null;

  constructor(
    private readonly host: Pick<ServiceHost, 'api' | 'bridge'>,
    private readonly choice: LiveChoice,
  ) {}


  /** True when audio goes to the sound card through the desktop app, false for Web Audio in the page. */
  get native(): boolean {
    return this.host.bridge !== null;
  }

  /** The text changed: with `autoSpeak`, each newly finished sentence is spoken at once. */
  typed(text: string, autoSpeak: boolean): void {
    if (this.sentUpTo > text.length) this.sentUpTo = 0;
    if (!autoSpeak) return;
    const next = finishedSentences(text, this.sentUpTo);
    if (next) {
      this.sentUpTo = next.end;
      void this.#send(next.chunk);
    }
  }

  /** Speaks what has not been sent yet (or the whole text again when everything was). */
  async speakRest(text: string): Promise<void> {
    const rest = text.slice(this.sentUpTo).trim();
    this.sentUpTo = text.length;
    if (rest) await this.#send(rest);
    else if (text.trim()) await this.#send(text.trim());
  }

  /** The text was cleared. */
  reset(): void {
    this.sentUpTo = 0;
  }

  /** Cuts what is playing; the session stays open. */
  async stop(): Promise<void> {
    const bridge = this.host.bridge;
    if (bridge) {
      await bridge.live.stop().catch(() => undefined);
      this.phase = 'ready';
    } else this.#web?.cancel();
  }

  /** The speed slider moved: the open session speaks at the new speed from the next sentence. */
  speedChanged(): void {
    const speed = this.choice.speed();
    if (this.host.bridge) void this.host.bridge.live.setSpeed(speed);
    else this.#web?.setSpeed(speed);
  }

  /** Closes the session (the tab is gone, or another voice was chosen). */
  async close(): Promise<void> {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    if (this.host.bridge && this.#sessionKey) await this.host.bridge.live.stop().catch(() => undefined);
    this.#web?.close();
    this.#web = null;
    this.#sessionKey = null;
  }

  async #send(chunk: string): Promise<void> {
    if (!chunk.trim() || !(await this.#ensureSession())) return;
    const bridge = this.host.bridge;
    if (bridge) {
      this.phase = 'speaking';
      await bridge.live.speak(chunk);
    } else this.#web?.speak(chunk);
  }

  async #ensureSession(): Promise<boolean> {
    const modelId = this.choice.modelId();
    if (!modelId) return false;
    const voice = this.choice.voice?.() ?? {};
    const key = JSON.stringify([modelId, voice]);
    if (this.#sessionKey === key && (this.phase === 'ready' || this.phase === 'speaking')) return true;
    await this.close();
    this.problem.clear();
    const speed = this.choice.speed();
    try {
      const bridge = this.host.bridge;
      if (bridge) {
        this.phase = 'connecting';
        this.#unsubscribe = bridge.live.onEvent((event) => {
          if (event.type === 'audio') {
            const s = this.stats;
            this.stats = { ...s, frames: s.frames + 1, samples: s.samples + event.samples, scheduledSeconds: s.scheduledSeconds + event.samples / (this.sampleRate ?? DEFAULT_SAMPLE_RATE) };
          } else if (event.type === 'done') {
            this.stats = { ...this.stats, responses: this.stats.responses + 1 };
            this.phase = 'ready';
          } else if (event.type === 'error') this.problem.set({ code: event.code, message: event.message });
          else if (event.type === 'closed') this.phase = 'closed';
        });
        this.sampleRate = (await bridge.live.start(modelId, speed, voice)).sampleRate;
        this.phase = 'ready';
      } else {
        this.#web = new WebAudioLive(this.host.api.realtimeUrl(modelId, voice), {
          onState: (s) => (this.phase = s),
          onError: (code, message) => this.problem.set({ code, message }),
          onStats: (s) => (this.stats = s),
        });
        this.sampleRate = await this.#web.start(speed);
      }
      this.#sessionKey = key;
      return true;
    } catch (err) {
      this.problem.set(err);
      this.phase = 'closed';
      return false;
    }
  }
}
