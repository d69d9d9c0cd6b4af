/**
 * Where `speak` and `transcribe` send their work: a running or hosted service (`--url` with VOXDESK_API_KEY), or
 * an in-process service on an ephemeral loopback port with the local account (stopped when the command ends).
 */
import { ApiClient } from '../common/api-client.js';
import { createService } from '../service/create-service.js';
import { createLog } from '../common/log.js';
import { atLeast, textSink } from '../common/log-sinks.js';

export interface ClientSessionOptions {
  url?: string;
  dataDir?: string;
  workers?: number;
}

export interface ClientSession {
  client: ApiClient;
  close(): Promise<void>;
}

export async function openClientSession(opts: ClientSessionOptions): Promise<ClientSession> {
  if (opts.url) {
    const key = process.env.VOXDESK_API_KEY;
    if (!key) throw new Error('--url needs the API key in VOXDESK_API_KEY');
    return { client: new ApiClient({ baseUrl: opts.url, apiKey: key }), close: async () => {} };
  }
  const service = await createService({
    host: '127.0.0.1',
    port: 0,
    // The CLI polls with a progress bar: POSTs answer at once.
    holdSeconds: 0,
    apiKey: null,
    log: createLog(atLeast('warn', textSink())),
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    ...(opts.workers !== undefined ? { workers: opts.workers } : {}),
  });
  return { client: new ApiClient({ baseUrl: service.url, apiKey: service.sessionKey() }), close: () => service.close() };
}
