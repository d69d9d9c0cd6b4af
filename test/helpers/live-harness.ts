import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import type { ModelDefinition } from '../../src-main/engines/model-definition.js';
import { espeakModelDefinition } from '../../src-main/engines/tts/espeak-models.js';
import { ttsFamilyDefinition } from '../../src-main/engines/tts/tts-families.js';
import { attachLiveServer, type LiveServer } from '../../src-main/service/live/live-server.js';
import type { LiveOptions } from '../../src-main/service/live/live-options.js';
import type { LiveCharge } from '../../src-main/service/live/live-session.js';
import { SHARED } from './system.js';
import { FailedAuthLimiter } from '../../src-main/service/auth/failed-auth-limiter.js';
import { scaled } from './time-scale.js';

export const GOOD_KEY = 'vdk_test_key';
export const ALLOWED_ORIGIN = 'http://127.0.0.1:5173';

export function tinyVitsModel(): ModelDefinition {
  const family = ttsFamilyDefinition('vits', {
    id: 'tiny-vits',
    dir: `${SHARED}models/tiny/tiny-vits`,
    languages: ['en'],
    files: { model: 'model.onnx', tokens: 'tokens.txt', lexicon: 'lexicon.txt' },
    numSpeakers: 2,
  });
  return {
    id: 'tiny-vits',
    name: 'tiny VITS (random weights)',
    description: 'test voice',
    capability: 'tts',
    products: ['text-to-speech'],
    provider: 'local',
    status: 'available',
    reason: null,
    ...family,
  };
}

export interface Harness {
  server: Server;
  live: LiveServer;
  url(query: string): string;
  charges: LiveCharge[];
  close(): Promise<void>;
}

export async function startLive(options: Partial<LiveOptions> = {}): Promise<Harness> {
  const espeak = espeakModelDefinition();
  const models: ModelDefinition[] = [
    { ...espeak, pricing: { currency: 'USD', request_fee_usd: 0.05, per_minute_usd: 0.00333, options: {} } },
    tinyVitsModel(),
    { ...espeak, id: 'not-live', live: false },
    { ...espeak, id: 'no-speed', acceptsSpeed: false },
    { ...espeak, id: 'stt-model', capability: 'asr', products: ['speech-to-text'] },
  ];
  const charges: LiveCharge[] = [];
  const server = createServer((_req, res) => res.writeHead(404).end());
  const live = attachLiveServer(server, {
    // The service's own key check, with one key and one allowed browser origin.
    authentication: {
      findOwner: (key) => (key === GOOD_KEY ? { accountId: 'acct_1', accountName: 'test', keyId: 'key_1' } : undefined),
      limiter: new FailedAuthLimiter(),
      isOriginAllowed: (origin) => origin === ALLOWED_ORIGIN,
    },
    resolveModel: (id) => models.find((m) => m.id === id),
    charge: (entry) => charges.push(entry),
    dataDir: '/nonexistent',
    options,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    live,
    charges,
    url: (query) => `ws://127.0.0.1:${port}/v1/text-to-speech/realtime?${query}`,
    async close() {
      await live.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Received = { kind: 'json'; value: Record<string, unknown> } | { kind: 'audio'; bytes: number; data: Buffer };

/** A client that records everything in order and can wait for a message. */
export class LiveClient {
  readonly received: Received[] = [];
  private waiters: { test: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const buf = data as Buffer;
      const item: Received = isBinary ? { kind: 'audio', bytes: buf.length, data: buf } : { kind: 'json', value: JSON.parse(buf.toString()) as Record<string, unknown> };
      this.received.push(item);
      for (const w of [...this.waiters]) {
        if (w.test(item)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(item);
        }
      }
    });
  }

  static open(url: string, headers: Record<string, string> = { authorization: `Bearer ${GOOD_KEY}` }): Promise<LiveClient> {
    const ws = new WebSocket(url, { headers });
    const client = new LiveClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  json(): Record<string, unknown>[] {
    return this.received.flatMap((r) => (r.kind === 'json' ? [r.value] : []));
  }

  waitFor(type: string, timeoutMs = scaled(30_000)): Promise<Record<string, unknown>> {
    const found = this.received.find((r) => r.kind === 'json' && r.value.type === type && !this.consumed.has(r));
    if (found) {
      this.consumed.add(found);
      return Promise.resolve((found as { value: Record<string, unknown> }).value);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${type} within ${timeoutMs} ms; got ${JSON.stringify(this.json())}`)), timeoutMs);
      this.waiters.push({
        test: (r) => r.kind === 'json' && r.value.type === type,
        resolve: (r) => {
          clearTimeout(timer);
          this.consumed.add(r);
          resolve((r as { value: Record<string, unknown> }).value);
        },
      });
    });
  }
  private consumed = new Set<Received>();

  close(): void {
    this.ws.close();
  }
}

/** The status line and body of a refused upgrade. */
export function refusedUpgrade(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(body) as Record<string, unknown> }));
    });
    ws.on('open', () => reject(new Error('the upgrade was accepted')));
    ws.on('error', () => {});
  });
}
