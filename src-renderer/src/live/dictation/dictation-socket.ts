/**
 * The page's side of the dictation WebSocket (common/dictation-protocol.ts): opens the session, tells the service
 * the audio's rate, sends PCM16 frames and `input_audio.end`, and hands every server message to the caller. Used in
 * the desktop app and in browsers alike (the key rides in the URL: browsers cannot set headers on a WebSocket).
 */
import type { DictationServerMessage } from '$common/dictation-protocol.js';
import { PageError } from '../../shared/error-messages.js';

export interface DictationSocketHandlers {
  onMessage(message: DictationServerMessage): void;
  /** The socket closed (after session.done, or because the session could not go on). */
  onClose(code: number, reason: string): void;
}

export class DictationSocket {
  private ws: WebSocket | null = null;

  constructor(
    private readonly url: string,
    private readonly handlers: DictationSocketHandlers,
  ) {}

  /** Resolves once the session is created and set to `sampleRate`; rejects when the service refuses it. */
  open(sampleRate: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url);
      this.ws = ws;
      let created = false;
      ws.onmessage = (event) => {
        if (typeof event.data !== 'string') return;
        let message: DictationServerMessage;
        try {
          message = JSON.parse(event.data) as DictationServerMessage;
        } catch {
          return;
        }
        if (message.type === 'session.created') {
          created = true;
          ws.send(JSON.stringify({ type: 'session.update', session: { sample_rate: sampleRate } }));
          resolve();
        }
        this.handlers.onMessage(message);
      };
      ws.onclose = (event) => {
        this.ws = null;
        if (!created) reject(new PageError('dictation_refused', event.reason || null));
        this.handlers.onClose(event.code, event.reason);
      };
    });
  }

  /** Sends one frame of PCM16; dropped when the socket is gone. */
  send(pcm: ArrayBuffer): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(pcm);
  }

  /** The input ended: the service sends the last finals and session.done, then closes. */
  end(): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: 'input_audio.end' }));
  }

  close(): void {
    this.ws?.close();
    this.ws = null;
  }
}
