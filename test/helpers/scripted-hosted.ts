/**
 * The remote runner's tests against a scripted hosted side: a node:http server on loopback (the network is the
 * boundary) whose answers each test writes, and a RemoteProvider over a real SQLite file pointing at it, with one
 * local account (`acc_1`) and the hosted catalogue (one TTS model, `remote:tts`) already fetched.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelDefinition } from '../../src-main/engines/model-definition.js';
import type { RunnerContext, RunnerTask } from '../../src-main/jobs/engine/job-runner.js';
import type { RemoteOptions } from '../../src-main/remote/remote-options.js';
import { createRemoteProvider, type RemoteProvider } from '../../src-main/remote/remote-provider.js';
import { openDatabase, type Db } from '../../src-main/store/database.js';
import { withSecrets } from './secrets.js';
import { silentLog } from '../../src-main/common/log.js';

export interface HostedCall {
  method: string;
  url: string;
  body: string;
  idempotencyKey: string | undefined;
}
export type HostedHandler = (call: HostedCall, res: ServerResponse) => void;

/** The hosted catalogue: one text-to-speech model, `tts` (locally `remote:tts`). */
export const CATALOGUE = { object: 'list', data: [{ id: 'tts', name: 'TTS', capability: 'tts', status: 'available', provider: 'local' }] };
/** created_at/updated_at of the rows the tests write as the job engine would. */
export const AT = '2026-01-01T00:00:00.000Z';

export function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export interface ScriptedHosted {
  url: string;
  /** Every call the handler answered, in order (not the catalogue reads). */
  calls: HostedCall[];
  /** Answers every call but the catalogue's; each test sets its own. */
  handler: HostedHandler;
  /** False: catalogue reads go to the handler too (a hosted side that is down). Default true. */
  catalogueUp: boolean;
  dir: string;
  db: Db;
  remote: RemoteProvider;
  /** A fresh call list and a catalogue that answers (for a beforeEach). */
  reset(): void;
  close(): Promise<void>;
}

/** Starts the scripted hosted side and a provider forwarding to it; `options` shorten the provider's intervals. */
export async function startScriptedHosted(name: string, options: Partial<RemoteOptions>): Promise<ScriptedHosted> {
  const dir = mkdtempSync(join(tmpdir(), `voxdesk-${name}-`));
  const hosted = {
    calls: [] as HostedCall[],
    handler: ((_call, res) => send(res, 500, { error: { code: 'internal_error', message: 'no handler set' } })) as HostedHandler,
    catalogueUp: true,
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url!.startsWith('/v1/models') && hosted.catalogueUp) return send(res, 200, CATALOGUE);
      const call = { method: req.method!, url: req.url!, body, idempotencyKey: req.headers['idempotency-key'] as string | undefined };
      hosted.calls.push(call);
      hosted.handler(call, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const db = openDatabase(join(dir, 'voxdesk.db'));
  db.prepare(`INSERT INTO accounts (id, name, created_at) VALUES ('acc_1', 'local', '${AT}')`).run();
  const remote = await createRemoteProvider({ ...withSecrets(dir, db), env: {}, log: silentLog, initial: { url, key: 'vdk_hosted' }, options });
  await remote.source.refresh();
  return Object.assign(hosted, {
    url,
    dir,
    db,
    remote,
    reset() {
      hosted.calls = [];
      hosted.catalogueUp = true;
    },
    async close() {
      remote.stop();
      db.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

/** The job engine's task for a local `remote:tts` job `jobId` speaking `text`, and a context with `signal`. */
export function runnerTask(hosted: ScriptedHosted, jobId: string, text: string, signal = new AbortController().signal): { task: RunnerTask; ctx: RunnerContext } {
  const definition = hosted.remote.source.list()[0] as ModelDefinition;
  return {
    task: {
      jobId,
      product: 'text-to-speech',
      modelId: 'remote:tts',
      engineConfig: definition.engineConfig,
      params: {},
      input: { text },
      workDir: join(hosted.dir, jobId),
      accountId: 'acc_1',
      definition,
      attempt: 1,
    },
    ctx: { signal, progress: () => {}, measured: () => {}, log: silentLog },
  };
}
