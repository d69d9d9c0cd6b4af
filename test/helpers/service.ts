/**
 * Starting the real service for integration tests: `startTestService()` runs it in this process on an ephemeral
 * loopback port with a temp data dir and a fresh key; `startServeProcess()` spawns `voxdesk serve` as a child
 * process (for kill -9 and signal tests). Both register the job engine's test engine models (TEST_MODELS).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ModelDefinition, ModelSource } from '../../src-main/engines/model-definition.js';
import type { ModelSourceFactory } from '../../src-main/engines/model-sources.js';
import type { ServiceConfig } from '../../src-main/service/config.js';
import { createService, type Service } from '../../src-main/service/create-service.js';
import { silentLog } from '../../src-main/common/log.js';

export const ROOT = new URL('../../', import.meta.url).pathname;

/** Params of the test engine (src-main/engines/test-engine.ts) plus a language and a priced option. */
const TEST_PARAMS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    behaviour: { type: 'string', enum: ['succeed', 'sleep', 'crash', 'exit', 'hang', 'fail', 'segments'], default: 'succeed' },
    count: { type: 'integer', minimum: 1, maximum: 1000, default: 5 },
    bad_index_at: { type: 'integer', minimum: 0 },
    fail_at: { type: 'integer', minimum: 0 },
    ms: { type: 'integer', minimum: 0, maximum: 600_000, default: 1000 },
    seconds: { type: 'number', minimum: 0, default: 1 },
    artifact: { type: 'boolean', default: false },
    code: { type: 'string' },
    message: { type: 'string' },
    /** Every segment's text instead of "segment N" (a looping recognizer, for the guardrails). */
    text: { type: 'string', maxLength: 2000 },
    language: { type: 'string', minLength: 2 },
    speaker_diarization: { type: 'boolean', default: false },
  },
};

function testModel(id: string, patch: Partial<ModelDefinition>): ModelDefinition {
  return {
    id,
    name: `Test ${id}`,
    description: 'job engine test engine (VOXDESK_TEST_ENGINES=1)',
    capability: 'asr',
    products: ['speech-to-text'],
    provider: 'local',
    engine: 'test',
    engineConfig: {},
    languages: ['en'],
    live: false,
    acceptsSpeed: false,
    limits: { max_file_bytes: null, max_audio_seconds: null, max_text_chars: null },
    paramsSchema: TEST_PARAMS_SCHEMA,
    status: 'available',
    reason: null,
    download: null,
    ...patch,
  };
}

/** Test-engine models: one per product kind, a small-upload one, an unavailable one and a downloading one. */
export const TEST_MODELS: readonly ModelDefinition[] = [
  testModel('test-asr', {
    pricing: { currency: 'USD', request_fee_usd: 0.05, per_minute_usd: 0.006, options: { speaker_diarization: { per_minute_usd: 0.002 } } },
  }),
  testModel('test-asr-small', { limits: { max_file_bytes: 64 * 1024, max_audio_seconds: null, max_text_chars: null } }),
  testModel('test-tts', { capability: 'tts', products: ['text-to-speech'], limits: { max_file_bytes: null, max_audio_seconds: null, max_text_chars: 200 } }),
  testModel('test-audio', {
    capability: 'noise_reduction',
    products: ['voice-isolator', 'audio-enhancement', 'stem-separation', 'voice-conversion'],
  }),
  testModel('test-cloning', { capability: 'voice_cloning', products: ['voice-cloning', 'voice-continuation'] }),
  testModel('test-design', { capability: 'voice_design', products: ['voice-design'] }),
  testModel('test-missing', { status: 'unavailable', reason: 'not downloaded (voxdesk models pull test-missing)', download: { sizeBytes: 1000, installed: false, licence: 'MIT' } }),
  testModel('test-downloading', { status: 'unavailable', reason: 'downloading', downloading: true }),
];

/** The test engines' rows: fixed, so the catalogue keeps them (version 0). */
export const testModelSource: ModelSourceFactory = (): ModelSource => {
  const rows = [...TEST_MODELS];
  return { name: 'test-models', list: () => rows, version: () => 0 };
};

export interface TestService {
  url: string;
  /** A fresh key of the local account. */
  key: string;
  dataDir: string;
  service: Service;
  /** Closes the service and removes the temp data dir. */
  stop(): Promise<void>;
}

export async function startTestService(overrides: Partial<ServiceConfig> = {}): Promise<TestService> {
  process.env.VOXDESK_TEST_ENGINES = '1';
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'voxdesk-test-'));
  const service = await createService({
    host: '127.0.0.1',
    port: 0,
    workers: 1,
    holdSeconds: 5,
    apiKey: null,
    pricingFile: null,
    extraModelSources: [testModelSource],
    log: silentLog,
    // Without the shipped Silero VAD unless a test asks for it: many tests pin what recognizers do on whole files, and
    // those of dictation and VAD segmentation install it (or turn this on) themselves. voxdesk serve has it.
    builtInModels: false,
    ...overrides,
    dataDir,
  });
  const key = await service.keys.createKey('local');
  return {
    url: service.url,
    key,
    dataDir,
    service,
    async stop() {
      await service.close(2000);
      if (!overrides.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** stderr so far (diagnostics). */
  stderr(): string;
  /** Resolves with the exit code/signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Spawns `node bin/voxdesk.js serve --port 0 --data-dir D` and resolves once its first stdout line names the URL.
 * `program` runs another entry point instead (a benchmark runs the compiled dist/src-main/cli/main.js).
 */
export function startServeProcess(dataDir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}, program = join(ROOT, 'bin/voxdesk.js')): Promise<ServeProcess> {
  const child = spawn(process.execPath, [program, 'serve', '--port', '0', '--data-dir', dataDir, ...args], {
    cwd: ROOT,
    env: { ...process.env, VOXDESK_DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`voxdesk serve printed no listening line in 60 s; stderr:\n${stderr}`));
    }, 60_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      const match = /^voxdesk listening on (http:\/\/\S+)$/.exec(line);
      if (!match) return reject(new Error(`unexpected first line ${JSON.stringify(line)}; stderr:\n${stderr}`));
      resolve({ url: match[1]!, child, stderr: () => stderr, exited });
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`voxdesk serve exited (${code ?? signal}) before listening; stderr:\n${stderr}`));
    });
  });
}

/** SIGTERM to a serve child still running (one a test killed on purpose is left as it is); resolves once it exited. */
export async function stopServe(serve: ServeProcess | undefined): Promise<void> {
  if (!serve || serve.child.exitCode !== null || serve.child.signalCode !== null) return;
  serve.child.kill('SIGTERM');
  await serve.exited;
}
