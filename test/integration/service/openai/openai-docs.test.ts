/**
 * Every ```sh and ```js example of docs/openai-compatible.md runs against a real service, with only what the page
 * says a reader sets: OPENAI_BASE_URL, OPENAI_API_KEY and jfk.wav in the working directory. The shell examples run in
 * bash (curl with -f, so an HTTP error fails them), the JavaScript ones as ES modules with the `openai` SDK; each
 * must exit 0, and the files they write must be what they claim.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startTestService, type TestService } from '../../../helpers/service.js';
import { requireCommand, SHARED } from '../../../helpers/system.js';
import { scaled } from '../../../helpers/time-scale.js';

requireCommand('pocketsphinx_continuous', 'pocketsphinx');
requireCommand('curl', 'curl');
const page = readFileSync(join(ROOT, 'docs/openai-compatible.md'), 'utf8');
const blocks = [...page.matchAll(/```(sh|js)\n([\s\S]*?)```/g)].map((m, i) => ({ lang: m[1] as 'sh' | 'js', code: m[2]!, index: i }));

let svc: TestService;
let work: string;
let env: NodeJS.ProcessEnv;
const scripts = join(ROOT, 'test-artifacts', 'docs-examples');

beforeAll(async () => {
  svc = await startTestService({ holdSeconds: 120 });
  work = mkdtempSync(join(tmpdir(), 'vox-docs-'));
  copyFileSync(join(SHARED, 'audio/jfk.wav'), join(work, 'jfk.wav'));
  mkdirSync(scripts, { recursive: true });
  env = { ...process.env, OPENAI_BASE_URL: `${svc.url}/v1`, OPENAI_API_KEY: svc.key };
});
afterAll(async () => {
  await svc?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

function runExample(command: string, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

function probe(file: string, extra: string[] = []): string {
  return execFileSync('ffprobe', ['-v', 'error', ...extra, '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', join(work, file)]).toString().trim();
}

describe('docs/openai-compatible.md examples', () => {
  it('has shell and JavaScript examples', () => {
    expect(blocks.filter((b) => b.lang === 'sh').length).toBeGreaterThanOrEqual(3);
    expect(blocks.filter((b) => b.lang === 'js').length).toBeGreaterThanOrEqual(2);
  });

  for (const block of blocks) {
    it(`example ${block.index + 1} (${block.lang}) runs`, async () => {
      let command: [string, string[]] = ['bash', ['-euo', 'pipefail', '-c', block.code]];
      if (block.lang === 'js') {
        const file = join(scripts, `example-${block.index + 1}.mjs`);
        writeFileSync(file, block.code);
        command = [process.execPath, [file]];
      }
      // Asynchronously: the service answering the example runs in this process.
      const run = await runExample(...command);
      expect(run.status, `${run.stderr}\n${run.stdout}`).toBe(0);
      if (/response_format=verbose_json/.test(block.code) && block.lang === 'sh') {
        expect(JSON.parse(run.stdout.trim().split('\n')[0]!)).toMatchObject({ task: 'transcribe', duration: 11, words: expect.any(Array) });
      }
      if (block.code.includes('jfk.srt')) expect(readFileSync(join(work, 'jfk.srt'), 'utf8')).toMatch(/^1\n00:00:/);
      if (block.code.includes('-o hello.mp3') || block.code.includes("'hello.mp3'")) expect(probe('hello.mp3')).toBe('mp3');
      if (block.code.includes('speech.pcm')) expect(statSync(join(work, 'speech.pcm')).size).toBeGreaterThan(48_000);
      if (block.code.includes('hello-sse.wav')) expect(probe('hello-sse.wav')).toBe('pcm_s16le');
      if (block.code.includes('models.list')) expect(run.stdout).toContain('espeak-ng');
    }, scaled(300_000));
  }
});
