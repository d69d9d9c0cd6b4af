/**
 * A client of the capture API for the capture tests: JSON requests with a key, and the capture socket's messages
 * collected until it closes, with a wait (generous: one recognizer process decodes both sides, and on a busy 2-core
 * machine it may get a fraction of a core) for a state of them.
 */
import WebSocket from 'ws';
import type { CaptureServerMessage } from '../../src-main/common/capture-protocol.js';
import { scaled } from './time-scale.js';

export async function captureApi<T>(url: string, path: string, key: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(`${url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as T };
}

export interface CaptureFollower {
  messages: CaptureServerMessage[];
  closed: Promise<void>;
  until(test: (m: CaptureServerMessage[]) => boolean, ms?: number): Promise<void>;
}

/** The capture socket's messages, collected until it closes. */
export function followCapture(url: string, key: string, id: string): CaptureFollower {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/v1/captures/${id}/realtime`, { headers: { authorization: `Bearer ${key}` } });
  const messages: CaptureServerMessage[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data) => {
    messages.push(JSON.parse(data.toString()) as CaptureServerMessage);
    for (const w of waiters) w();
  });
  const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
  return {
    messages,
    closed,
    until: (test, ms = scaled(300_000)) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (!test(messages)) return;
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => reject(new Error(`the capture socket did not get there in ${ms} ms: ${JSON.stringify(messages.filter((x) => x.type !== 'capture.levels').slice(-8))}`)), ms);
        waiters.push(check);
        check();
      }),
  };
}
