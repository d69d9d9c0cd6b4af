/**
 * `voxdesk mcp` as an assistant uses it: the official MCP SDK's client starts the command over stdio against a real
 * Voxdesk (PocketSphinx on jfk.wav, eSpeak NG) and calls every tool and the transcripts resource — progress
 * notifications, a cancelled call, another account's job refused, bad arguments refused with nothing created.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLongRecording } from '../../helpers/long-recording.js';
import { ROOT, startTestService, type TestService } from '../../helpers/service.js';
import { requireCommand, requireFile, SHARED } from '../../helpers/system.js';
import { scaled } from '../../helpers/time-scale.js';

let t: TestService;
let mcp: Client;
let dir: string;
const JFK = join(SHARED, 'audio/jfk.wav');

interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

async function call(name: string, args: Record<string, unknown>, client = mcp, onprogress?: (p: { progress: number }) => void): Promise<ToolAnswer> {
  return (await client.callTool({ name, arguments: args }, undefined, onprogress ? { onprogress, timeout: scaled(120_000) } : { timeout: scaled(120_000) })) as ToolAnswer;
}

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'voxdesk-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'bin/voxdesk.js'), 'mcp', '--url', t.url],
    env: { ...(process.env as Record<string, string>), VOXDESK_API_KEY: key },
    stderr: 'pipe',
  });
  await client.connect(transport);
  oneMessagePerTask(transport);
  return client;
}

/**
 * Hands the client the messages Voxdesk wrote one task apart, in order. SDK 1.32 runs a notification's handler a
 * microtask after a response's, so progress read in the same chunk as the answer is dropped on a busy machine
 * (typescript-sdk#2580, fixed upstream by dispatching in arrival order); the tests check what Voxdesk sent.
 */
function oneMessagePerTask(transport: StdioClientTransport): void {
  const deliver = transport.onmessage!;
  transport.onmessage = (message) => {
    setImmediate(() => deliver(message));
  };
}

async function jobCount(): Promise<number> {
  const response = await fetch(`${t.url}/v1/jobs?limit=100`, { headers: { authorization: `Bearer ${t.key}` } });
  return ((await response.json()) as { data: unknown[] }).data.length;
}

beforeAll(async () => {
  requireCommand('pocketsphinx_continuous', 'pocketsphinx');
  requireFile('/usr/share/pocketsphinx/model/en-us', 'pocketsphinx-en-us');
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-mcp-'));
  t = await startTestService({ workers: 2 });
  mcp = await connect(t.key);
}, scaled(120_000));

afterAll(async () => {
  await mcp?.close();
  await t?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('voxdesk mcp', () => {
  it('offers the tools and the transcripts resource', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_transcript', 'job_status', 'list_models', 'search_transcripts', 'speak_to_file', 'transcribe_file', 'usage_this_month']);
    const transcribe = tools.find((tool) => tool.name === 'transcribe_file')!;
    expect(transcribe.inputSchema.required).toEqual(['path']);
  });

  it('transcribes a file with progress, then finds its words, reads a time range and the resource', async () => {
    const progress: number[] = [];
    const done = await call('transcribe_file', { path: JFK, model: 'pocketsphinx-en-us' }, mcp, (p) => progress.push(p.progress));
    expect(done.isError).toBeFalsy();
    const jobId = done.structuredContent!.job_id as string;
    expect(done.structuredContent!.status).toBe('succeeded');
    expect(String(done.structuredContent!.text)).toMatch(/country/i);
    // Progress as the job reported it while the call waited: from the queued job, in percent, never going back.
    expect(progress[0]).toBe(0);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const found = await call('search_transcripts', { query: 'country' });
    expect((found.structuredContent!.hits as { job_id: string }[]).map((h) => h.job_id)).toContain(jobId);
    expect(found.content[0]!.text).toContain('jfk.wav');

    const whole = await call('get_transcript', { job_id: jobId });
    const segments = whole.structuredContent!.segments as { start: number; end: number }[];
    expect(segments.length).toBeGreaterThan(0);
    expect(whole.content[0]!.text).toMatch(/^\[0:0\d–0:\d\d\] /);
    const late = await call('get_transcript', { job_id: jobId, start: 100, end: 200 });
    expect(late.structuredContent!.segments).toEqual([]);
    expect(late.content[0]!.text).toBe('(no speech in that range)');

    const { resources } = await mcp.listResources();
    expect(resources.map((r) => r.uri)).toContain(`voxdesk://transcripts/${jobId}`);
    const read = await mcp.readResource({ uri: `voxdesk://transcripts/${jobId}` });
    expect((read.contents[0] as { text: string }).text).toMatch(/country/i);

    const status = await call('job_status', { job_id: jobId });
    expect(status.content[0]!.text).toBe('jfk.wav is succeeded (100 %).');
  });

  it('answers with the job id at once when asked not to wait', async () => {
    const queued = await call('transcribe_file', { path: JFK, model: 'pocketsphinx-en-us', wait: false });
    expect(queued.structuredContent!.job_id).toMatch(/^job_/);
    expect(['queued', 'running', 'succeeded']).toContain(queued.structuredContent!.status);
  });

  it('speaks into a file, and keeps an existing file unless told to overwrite it', async () => {
    requireCommand('ffmpeg');
    const out = join(dir, 'hello.wav');
    const spoken = await call('speak_to_file', { text: 'Hello from Voxdesk.', path: out });
    expect(spoken.isError).toBeFalsy();
    expect(readFileSync(out).subarray(0, 4).toString('latin1')).toBe('RIFF');
    const size = statSync(out).size;
    const again = await call('speak_to_file', { text: 'Another text entirely, and longer.', path: out });
    expect(again.isError).toBe(true);
    expect(again.content[0]!.text).toMatch(/^conflict: .*exists; pass overwrite: true/);
    expect(statSync(out).size).toBe(size);
    const replaced = await call('speak_to_file', { text: 'Another text entirely, and longer.', path: out, overwrite: true });
    expect(replaced.isError).toBeFalsy();
    expect(statSync(out).size).not.toBe(size);
  });

  it('lists models and voices, and this month\'s usage', async () => {
    const models = await call('list_models', { capability: 'tts' });
    expect((models.structuredContent!.models as { id: string }[]).map((m) => m.id)).toContain('espeak-ng');
    const usage = await call('usage_this_month', {});
    expect(usage.content[0]!.text).toMatch(/^Charged \d+\.\d\d USD from \d{4}-\d\d-\d\d/);
  });

  it('refuses bad arguments with a clear tool error and creates nothing', async () => {
    const before = await jobCount();
    const missing = await call('transcribe_file', { path: join(dir, 'no-such.wav') });
    expect(missing).toMatchObject({ isError: true });
    expect(missing.content[0]!.text).toMatch(/file_required: .*no-such\.wav does not exist/);
    const folder = await call('transcribe_file', { path: dir });
    expect(folder.content[0]!.text).toMatch(/is not a file/);
    const noPath = await call('transcribe_file', {});
    expect(noPath.isError).toBe(true);
    expect(noPath.content[0]!.text).toMatch(/path/);
    const unknownModel = await call('transcribe_file', { path: JFK, model: 'no-such-model' });
    expect(unknownModel.isError).toBe(true);
    expect(unknownModel.content[0]!.text).toMatch(/^\w+: .*no-such-model/);
    const range = await call('get_transcript', { job_id: 'job_x', start: 5, end: 1 });
    expect(range.content[0]!.text).toMatch(/end must be after start/);
    expect(await jobCount()).toBe(before);
  });

  it("another account's job is not found through its key", async () => {
    const mine = await call('transcribe_file', { path: JFK, model: 'pocketsphinx-en-us', wait: false });
    const otherKey = await t.service.keys.createKey('someone else');
    const other = await connect(otherKey);
    try {
      const status = await call('job_status', { job_id: mine.structuredContent!.job_id }, other);
      expect(status.isError).toBe(true);
      expect(status.content[0]!.text).toMatch(/^not_found: /);
      const transcript = await call('get_transcript', { job_id: mine.structuredContent!.job_id }, other);
      expect(transcript.content[0]!.text).toMatch(/^not_found: /);
    } finally {
      await other.close();
    }
  });

  it('a cancelled call cancels its job', async () => {
    const controller = new AbortController();
    // Five and a half minutes of speech: long enough to be cancelled while it runs.
    const long = makeLongRecording(dir);
    const pending = mcp.callTool({ name: 'transcribe_file', arguments: { path: long, model: 'pocketsphinx-en-us' } }, undefined, { signal: controller.signal, timeout: scaled(120_000) });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    controller.abort();
    await expect(pending).rejects.toThrow();
    // The server may still be uploading when the call is cancelled: its job then appears, and is cancelled, after.
    const status = async (): Promise<string> => {
      const list = (await (await fetch(`${t.url}/v1/jobs?limit=100`, { headers: { authorization: `Bearer ${t.key}` } })).json()) as { data: { name: string; status: string }[] };
      return list.data.find((j) => j.name === 'long-recording.wav')?.status ?? 'not created yet';
    };
    await expect.poll(status, { timeout: scaled(60_000) }).toMatch(/cancelled|succeeded/);
  }, scaled(120_000));
});
