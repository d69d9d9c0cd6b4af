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

/** Asks for the capture until it is no longer `stopping` (its other side diarized and its job saved), then returns it. */
export async function untilCaptureSaved<T extends { status: string }>(url: string, key: string, id: string, ms = scaled(300_000)): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const seen = (await captureApi<T>(url, `/v1/captures/${id}`, key)).body;
    if (seen.status !== 'stopping') return seen;
    if (Date.now() > deadline) throw new Error(`the capture was still stopping after ${ms} ms: ${JSON.stringify(seen)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * The job a capture left by an earlier run was saved as at this start ("Meeting … (recovered)"): captures are saved in
 * the background after the service starts, so it is asked for until it is there.
 */
export async function untilRecoveredJob<T extends { name?: string | null }>(url: string, key: string, ms = scaled(300_000)): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const jobs = (await captureApi<{ data: T[] }>(url, '/v1/jobs?limit=10', key)).body.data;
    const recovered = jobs.find((j) => j.name?.startsWith('Meeting ') && j.name.endsWith('(recovered)'));
    if (recovered) return recovered;
    if (Date.now() > deadline) throw new Error(`no recovered capture's job after ${ms} ms: ${JSON.stringify(jobs.map((j) => j.name))}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
