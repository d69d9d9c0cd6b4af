/**
 * The Live tab's Meeting mode, apart from its view (docs/capture.md): one meeting capture at a time on this machine —
 * the service records the microphone and the system's output itself (POST /v1/captures), or, where it cannot
 * (Windows, macOS: sources' backend `client`), this window records both and sends them (client-sides.ts) — and its live transcript
 * from the capture's socket, each utterance labelled with its side ("You" or the other side). A capture started
 * elsewhere (the command line, another window) is picked up and shown, so nothing records unseen; Stop waits for the
 * last words and leaves the meeting in Jobs as an ordinary transcription.
 */
import type { Capture, CaptureServerMessage, CaptureSide, CaptureSources, CaptureWarning } from '$common/capture-protocol.js';
import { Problem } from '../shared/problem.svelte.js';
import { ClientSides } from './client-sides.js';
import type { ServiceHost } from '../shared/service/service-host.js';
import type { ChosenModel } from '../shared/ui/model-choice.svelte.js';

export type MeetingPhase = 'idle' | 'starting' | 'recording' | 'stopping';

export interface MeetingLine {
  /** Side and segment id: a side's segments count from 0 on its own. */
  key: string;
  side: CaptureSide;
  /** The speaker the service gave it: "You", "Other side", or the other side's provisional "Other side 2". */
  speaker: string;
  text: string;
  /** False while the text is a partial (shown grey). */
  final: boolean;
  /** Seconds from the start of the capture (finals only; partials sort last). */
  start: number;
}

/** The number of the other side's provisional speaker a line carries ("Other side 2" → 2), or null. */
export function otherSideNumber(line: Pick<MeetingLine, 'side' | 'speaker'>): number | null {
  const numbered = line.side === 'system' ? /^Other side (\d+)$/.exec(line.speaker) : null;
  return numbered ? Number(numbered[1]) : null;
}

export class MeetingCapture {
  phase = $state<MeetingPhase>('idle');
  capture = $state.raw<Capture | null>(null);
  sources = $state.raw<CaptureSources | null>(null);
  lines = $state<MeetingLine[]>([]);
  warnings = $state.raw<CaptureWarning[]>([]);
  /** Input levels 0..1 of both sides. */
  levels = $state<Record<CaptureSide, number>>({ microphone: 0, system: 0 });
  /** The job of the last finished capture. */
  jobId = $state<string | null>(null);
  readonly problem = new Problem();
  #socket: WebSocket | null = null;
  /** The two sides this window records, when the service cannot (sources.backend `client`). */
  #sides: ClientSides | null = null;

  constructor(
    private readonly host: Pick<ServiceHost, 'api' | 'refreshSoon' | 'bridge'>,
    private readonly choice: ChosenModel,
  ) {}

  /** What can be recorded here; and a capture already running (started elsewhere) is followed. */
  async refresh(): Promise<void> {
    try {
      this.sources = await this.host.api.captureSources();
      const running = (await this.host.api.listCaptures()).data.find((c) => c.status === 'recording' || c.status === 'stopping');
      if (running && !this.#socket) this.#follow(running);
    } catch (err) {
      this.problem.set(err);
    }
  }

  async start(): Promise<void> {
    const model = this.choice.modelId();
    if (!model || this.phase !== 'idle') return;
    this.phase = 'starting';
    this.problem.clear();
    this.jobId = null;
    this.lines = [];
    this.warnings = [];
    // Where the service cannot record this computer, the microphone and the computer's sound are asked for first.
    const client = this.sources?.backend === 'client';
    const sides = client ? new ClientSides() : null;
    try {
      await sides?.acquire(this.host.bridge);
      const capture = await this.host.api.startCapture(client ? { model, microphone: 'client', system: 'client' } : { model });
      this.#sides = sides;
      this.#follow(capture);
    } catch (err) {
      await sides?.stop();
      this.problem.set(err);
      this.phase = 'idle';
    }
  }

  /** Stops the capture; resolves once the service has kept it as a job, or has begun diarizing its other side. */
  async stop(): Promise<void> {
    const capture = this.capture;
    if (!capture || this.phase !== 'recording') return;
    this.phase = 'stopping';
    // What this window records ends at Stop, as the service's own recording does; the last words still come.
    this.#stopSides();
    try {
      const answer = await this.host.api.stopCapture(capture.id);
      // With the speaker models the stop answers while the other side is diarized: the socket's capture.done ends it.
      if (answer.status === 'stopping') this.capture = answer;
      else this.#ended(answer);
    } catch (err) {
      this.problem.set(err);
      this.phase = 'recording';
    }
  }

  /** The transcript's lines in order, for the view: finals by time, partials after them. */
  get ordered(): MeetingLine[] {
    return [...this.lines].sort((a, b) => Number(a.final === false) - Number(b.final === false) || a.start - b.start);
  }

  close(): void {
    this.#socket?.close();
    this.#socket = null;
    this.#stopSides();
  }

  #stopSides(): void {
    void this.#sides?.stop();
    this.#sides = null;
  }

  #follow(capture: Capture): void {
    this.capture = capture;
    this.warnings = capture.warnings;
    this.phase = capture.status === 'stopping' ? 'stopping' : 'recording';
    const ws = new WebSocket(this.host.api.captureSocketUrl(capture));
    this.#socket = ws;
    const sides = this.#sides;
    if (sides) {
      const open = (): boolean => ws.readyState === WebSocket.OPEN;
      ws.onopen = () =>
        void sides
          .start({
            sendFrame: (frame) => open() && ws.send(frame),
            sendMessage: (message) => open() && ws.send(JSON.stringify(message)),
          })
          .catch((err: unknown) => this.problem.set(err));
    }
    ws.onmessage = (event) => {
      if (typeof event.data !== 'string') return;
      try {
        this.#onMessage(JSON.parse(event.data) as CaptureServerMessage);
      } catch (err) {
        this.problem.set(err);
      }
    };
    ws.onclose = () => {
      if (this.#socket !== ws) return;
      this.#socket = null;
      // Without its socket nothing this window records reaches the capture: let go of the devices.
      this.#stopSides();
    };
  }

  #onMessage(message: CaptureServerMessage): void {
    switch (message.type) {
      case 'capture.state':
        this.capture = message.capture;
        this.warnings = message.capture.warnings;
        break;
      case 'transcript.partial':
        this.#setLine(message.side, message.speaker, message.segment_id, message.text, false, Number.MAX_SAFE_INTEGER);
        break;
      case 'transcript.final':
        this.#setLine(message.side, message.speaker, message.segment_id, message.text, true, message.start);
        break;
      case 'capture.levels':
        this.levels = { microphone: message.microphone, system: message.system };
        break;
      case 'capture.warning':
        this.warnings = [...this.warnings.filter((w) => w.side !== message.warning.side), message.warning];
        break;
      case 'capture.warning_cleared':
        this.warnings = this.warnings.filter((w) => w.side !== message.side);
        break;
      case 'capture.done':
        this.jobId = message.job_id;
        if (this.capture) this.#ended({ ...this.capture, status: 'done', job_id: message.job_id });
        break;
      case 'error':
        this.problem.set(message.error);
        break;
      default:
        break;
    }
  }

  #setLine(side: CaptureSide, speaker: string, segmentId: number, text: string, final: boolean, start: number): void {
    const key = `${side}:${segmentId}`;
    const others = this.lines.filter((l) => l.key !== key);
    // An empty final closes an utterance whose partials came to nothing.
    this.lines = final && text.trim() === '' ? others : [...others, { key, side, speaker, text: text.trim(), final, start }];
  }

  #ended(capture: Capture): void {
    this.#stopSides();
    this.capture = capture;
    this.jobId = capture.job_id;
    this.phase = 'idle';
    this.levels = { microphone: 0, system: 0 };
    this.lines = this.lines.filter((l) => l.final);
    this.host.refreshSoon();
  }
}
