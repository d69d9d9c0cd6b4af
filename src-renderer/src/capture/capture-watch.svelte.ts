/**
 * Whether a meeting capture is recording on this machine, whoever started it (the Meeting mode, the command line,
 * another window): the page shows a banner on every tab while one runs, so nothing records unseen (docs/capture.md).
 * Asked every few seconds while the page is connected; a key the capture routes do not answer (another account in
 * browser mode: 404) stops asking — that account cannot start one either.
 */
import { ApiClientError } from '$common/api-client.js';
import type { Capture } from '$common/capture-protocol.js';
import { contextKey } from '../shared/context.js';
import type { ServiceHost } from '../shared/service/service-host.js';

/** How often the page asks. Default 3 s. */
export const CAPTURE_WATCH_MS = 3_000;

export class CaptureWatch {
  /** The capture recording now (or stopping), null when none. */
  running = $state.raw<Capture | null>(null);
  #timer: ReturnType<typeof setTimeout> | null = null;
  #stopped = false;

  constructor(private readonly host: () => Pick<ServiceHost, 'api'> | null) {}

  start(): void {
    this.#stopped = false;
    if (!this.#timer) void this.check();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Asks now (after a start or stop in this page). */
  async check(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const host = this.host();
    if (!host) return;
    try {
      const list = await host.api.listCaptures();
      this.running = list.data.find((c) => c.status === 'recording' || c.status === 'stopping') ?? null;
    } catch (err) {
      if (err instanceof ApiClientError && (err.status === 404 || err.status === 401 || err.status === 403)) {
        this.running = null;
        return;
      }
      // The service is away for a moment: the connection banner says so; keep asking.
    }
    if (!this.#stopped) this.#timer = setTimeout(() => void this.check(), CAPTURE_WATCH_MS);
  }

  async stopRunning(): Promise<void> {
    const running = this.running;
    const host = this.host();
    if (!running || !host) return;
    await host.api.stopCapture(running.id);
    await this.check();
  }
}

export const CAPTURE_WATCH = contextKey<CaptureWatch>('CaptureWatch');
