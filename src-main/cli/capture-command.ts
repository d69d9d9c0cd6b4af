/**
 * `voxdesk capture start|stop|list|sources` (docs/capture.md): meeting capture from the command line.
 * - With `--url` (and VOXDESK_API_KEY) it drives a running service: `start` prints the capture's id (and with
 *   `--follow` the live transcript until it ends), `stop [ID]` stops it (default: the running one) and prints the job id.
 * - Without `--url` `start` runs an in-process service in the foreground and prints the live transcript, "You:" and
 *   "Other side:" lines, until Ctrl+C or `voxdesk capture stop` from another terminal (which finds it through
 *   `<data dir>/capture.pid`); then the capture is saved and its job id printed on stdout.
 */
import type { Command } from 'commander';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { Capture, CaptureList, CaptureServerMessage, CaptureSources } from '../common/capture-protocol.js';
import { createService } from '../service/create-service.js';
import { defaultDataDir } from '../service/config.js';
import { createLog, silentLog } from '../common/log.js';
import { atLeast, textSink } from '../common/log-sinks.js';
import { tell } from './output.js';

interface CaptureOptions {
  url?: string;
  dataDir?: string;
}

interface StartOptions extends CaptureOptions {
  model: string;
  language?: string;
  microphone?: string;
  system?: string;
  follow?: boolean;
}

/** How often `capture stop` asks whether a stopped capture's job is saved (while its other side is diarized). */
const STOPPING_POLL_MS = 1_000;

/** The pid file of a foreground capture (so `capture stop` in another terminal can end it). */
const PID_FILE = 'capture.pid';

interface Endpoint {
  url: string;
  key: string;
}

async function call<T>(endpoint: Endpoint, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${endpoint.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${endpoint.key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const answer = (await response.json()) as T & { error?: { code: string; message: string } };
  if (!response.ok) throw new Error(`${answer.error?.message ?? `HTTP ${response.status}`} (${answer.error?.code ?? response.status})`);
  return answer;
}

function remote(opts: CaptureOptions): Endpoint {
  const key = process.env.VOXDESK_API_KEY;
  if (!key) throw new Error('--url needs the API key in VOXDESK_API_KEY');
  return { url: opts.url!.replace(/\/$/, ''), key };
}

/** "You: …" / "Other side: …" for each final, warnings and errors on stderr; resolves when the capture is done. */
function printTranscript(endpoint: Endpoint, capture: Capture): Promise<void> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${endpoint.url.replace(/^http/, 'ws')}${capture.realtime_path}`, { headers: { authorization: `Bearer ${endpoint.key}` } });
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as CaptureServerMessage;
      if (message.type === 'transcript.final' && message.text) process.stdout.write(`${message.speaker}: ${message.text}\n`);
      else if (message.type === 'capture.warning') tell(`warning: ${message.warning.message}`);
      else if (message.type === 'error') tell(`${message.error.code}: ${message.error.message}`);
    });
    ws.on('close', () => resolve());
    ws.on('error', (error) => {
      tell(`the live transcript could not be followed: ${error.message}`);
      resolve();
    });
  });
}

function requestOf(opts: StartOptions): Record<string, string> {
  return {
    model: opts.model,
    ...(opts.language ? { language: opts.language } : {}),
    ...(opts.microphone ? { microphone: opts.microphone } : {}),
    ...(opts.system ? { system: opts.system } : {}),
  };
}

async function startForeground(opts: StartOptions): Promise<void> {
  const dataDir = opts.dataDir ?? defaultDataDir();
  const service = await createService({ host: '127.0.0.1', port: 0, apiKey: null, dataDir, log: createLog(atLeast('warn', textSink())) });
  const endpoint = { url: service.url, key: service.sessionKey() };
  const pidFile = join(dataDir, PID_FILE);
  try {
    const capture = await call<Capture>(endpoint, 'POST', '/v1/captures', requestOf(opts));
    writeFileSync(pidFile, String(process.pid), { mode: 0o600 });
    tell(`capturing ${capture.sources.microphone.device} (You) and ${capture.sources.system.device} (Other side); Ctrl+C or voxdesk capture stop ends it`);
    const stop = (): void => void call<Capture>(endpoint, 'POST', `/v1/captures/${capture.id}/stop`).catch(() => undefined);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await printTranscript(endpoint, capture);
    const done = await call<Capture>(endpoint, 'GET', `/v1/captures/${capture.id}`);
    if (done.job_id) process.stdout.write(`${done.job_id}\n`);
    else throw new Error(done.error?.message ?? 'nothing was recorded');
  } finally {
    rmSync(pidFile, { force: true });
    await service.close();
  }
}

export function registerCaptureCommand(program: Command): void {
  const capture = program.command('capture').description("record a meeting: this machine's microphone and its sound, transcribed live");
  const common = (command: Command): Command =>
    command.option('--url <url>', 'a running service (with VOXDESK_API_KEY) instead of one in this process').option('--data-dir <dir>', 'data dir of the in-process service');

  common(
    capture
      .command('start')
      .description('start a capture (in the foreground without --url: Ctrl+C or capture stop ends it)')
      .requiredOption('--model <id>', 'a live speech-to-text model (voxdesk models list)')
      .option('--language <code>', "one of the model's languages (default auto)")
      .option('--microphone <device>', 'a device of capture sources, default, or client')
      .option('--system <device>', "the output's monitor to record: a device of capture sources, default, or client")
      .option('--follow', 'with --url: print the live transcript until the capture ends'),
  ).action(async (opts: StartOptions) => {
    if (!opts.url) return startForeground(opts);
    const endpoint = remote(opts);
    const started = await call<Capture>(endpoint, 'POST', '/v1/captures', requestOf(opts));
    process.stdout.write(`${started.id}\n`);
    if (opts.follow) await printTranscript(endpoint, started);
  });

  common(capture.command('stop [id]').description('stop the running capture (or ID) and print its job id')).action(async (id: string | undefined, opts: CaptureOptions) => {
    if (!opts.url) {
      const pidFile = join(opts.dataDir ?? defaultDataDir(), PID_FILE);
      let pid: number;
      try {
        pid = Number(readFileSync(pidFile, 'utf8'));
      } catch {
        throw new Error('no capture runs in the foreground for this data dir (for a service, give --url)');
      }
      process.kill(pid, 'SIGINT');
      tell(`asked the capture (process ${pid}) to stop; it prints its job id`);
      return;
    }
    const endpoint = remote(opts);
    const running = id ?? (await call<CaptureList>(endpoint, 'GET', '/v1/captures')).data.find((c) => c.status === 'recording')?.id;
    if (!running) throw new Error('no capture is running');
    let stopped = await call<Capture>(endpoint, 'POST', `/v1/captures/${running}/stop`);
    // With the speaker models the stop answers once the other side is being diarized: wait for the job.
    if (stopped.status === 'stopping') tell("telling the other side's speakers apart…");
    while (stopped.status === 'stopping') {
      await new Promise((resolve) => setTimeout(resolve, STOPPING_POLL_MS));
      stopped = await call<Capture>(endpoint, 'GET', `/v1/captures/${running}`);
    }
    if (stopped.status === 'failed') throw new Error(stopped.error?.message ?? 'the capture could not be saved');
    process.stdout.write(`${stopped.job_id ?? ''}\n`);
  });

  common(capture.command('list').description('the running capture and the last ended ones')).action(async (opts: CaptureOptions) => {
    if (!opts.url) throw new Error('capture list asks a running service: give --url (and VOXDESK_API_KEY)');
    for (const c of (await call<CaptureList>(remote(opts), 'GET', '/v1/captures')).data) {
      process.stdout.write(`${c.id}  ${c.status}  ${c.duration_seconds.toFixed(1)} s  ${c.job_id ?? ''}\n`);
    }
  });

  common(capture.command('sources').description('the devices a capture can record')).action(async (opts: CaptureOptions) => {
    let sources: CaptureSources;
    if (opts.url) sources = await call<CaptureSources>(remote(opts), 'GET', '/v1/captures/sources');
    else {
      const service = await createService({ host: '127.0.0.1', port: 0, apiKey: null, ...(opts.dataDir ? { dataDir: opts.dataDir } : {}), log: silentLog });
      try {
        sources = await service.captures.sources();
      } finally {
        await service.close();
      }
    }
    if (sources.reason) tell(`${sources.reason}`);
    for (const d of sources.devices) process.stdout.write(`${d.kind.padEnd(10)}  ${d.default ? '*' : ' '} ${d.id}  (${d.name})\n`);
    if (sources.backend === 'client') tell('this service records no device itself: a client sends both sides (the desktop app does)');
  });
}
