/** `voxdesk models list|pull|import|remove|cancel` in a real child process, on a temp data dir. */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SHARED } from '../../helpers/system.js';
import { startRangeServer, type RangeServer } from '../../helpers/range-server.js';

const RUNNER = fileURLToPath(new URL('./models-cli.ts', import.meta.url));
let dir: string;
let server: RangeServer;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-cli-'));
  server = await startRangeServer({ '/gtcrn-simple/gtcrn_simple.onnx': { body: readFileSync(join(SHARED, 'models', 'gtcrn_simple.onnx')) } });
});
afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function run(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runWith({ VOXDESK_MODEL_MIRROR: server.url }, ...args);
}

function runWith(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', RUNNER, 'models', ...args, '--data-dir', dir], {
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('voxdesk models', () => {
  it('lists, pulls (through the mirror), imports and removes models', async () => {
    const list = await run('list');
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/^ID\s+CAPABILITY\s+LANGUAGES\s+SIZE\s+STATE$/);
    expect(list.stdout).toMatch(/gtcrn-simple\s+noise_reduction\s+-\s+536 kB\s+not installed/);
    expect(list.stdout).toMatch(/parakeet-tdt-0\.6b-v2\s+asr\s+en\s+482\.5 MB\s+not installed/);

    const pull = await run('pull', 'gtcrn-simple');
    expect(pull.stderr + pull.stdout).toContain('gtcrn-simple');
    expect(pull.code).toBe(0);
    expect(pull.stdout).toBe(`gtcrn-simple installed in ${join(dir, 'models', 'gtcrn-simple')}\n`);
    expect(existsSync(join(dir, 'models', 'gtcrn-simple', 'gtcrn_simple.onnx'))).toBe(true);

    const imported = await run('import', join(SHARED, 'models', 'tiny', 'tiny-nemo-ctc'), '--id', 'ctc');
    expect(imported).toMatchObject({ code: 0, stdout: `ctc: imported nemo-ctc model into ${join(dir, 'models', 'ctc')}\n` });

    const json = JSON.parse((await run('list', '--json')).stdout) as Array<{ id: string; state: string }>;
    expect(json.find((p) => p.id === 'gtcrn-simple')!.state).toBe('installed');
    expect(json.find((p) => p.id === 'ctc')!.state).toBe('installed');

    expect(await run('remove', 'ctc')).toMatchObject({ code: 0, stdout: 'ctc: removed\n' });
    expect(existsSync(join(dir, 'models', 'ctc'))).toBe(false);
  });

  it('fails with a clear message and exit code 1 on bad input', async () => {
    expect(await run('pull', 'nope')).toMatchObject({ code: 1, stderr: expect.stringContaining('not_found: no downloadable model nope') });
    expect(await run('remove', 'gtcrn-simple')).toMatchObject({ code: 1, stderr: expect.stringContaining('conflict: gtcrn-simple is not installed') });
    expect(await run('import', join(dir, 'missing'))).toMatchObject({ code: 1, stderr: expect.stringContaining('does not exist') });
    expect(await run('cancel', 'gtcrn-simple')).toMatchObject({ code: 1, stderr: expect.stringContaining('is not downloading') });
    server.files.delete('/gtcrn-simple/gtcrn_simple.onnx');
    const failed = await run('pull', 'gtcrn-simple');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('gtcrn-simple: download_failed: HTTP 404');
  });

  it('pull --model-mirror takes this run\'s files from that mirror, over the environment\'s', async () => {
    const pull = await runWith({ VOXDESK_MODEL_MIRROR: 'http://127.0.0.1:9' }, 'pull', 'gtcrn-simple', '--model-mirror', `${server.url}/`);
    expect(pull).toMatchObject({ code: 0, stdout: `gtcrn-simple installed in ${join(dir, 'models', 'gtcrn-simple')}\n` });
    expect(server.requests.map((r) => r.path)).toContain('/gtcrn-simple/gtcrn_simple.onnx');
    const bad = await runWith({}, 'pull', 'gtcrn-simple', '--model-mirror', 'not a url');
    expect(bad).toMatchObject({ code: 1, stderr: expect.stringContaining('the model mirror must be an http(s) URL') });
  });

  it('add URL --sha256 downloads a model from any URL; a wrong checksum fails and deletes the file', async () => {
    const archive = readFileSync(join(SHARED, 'models', 'tiny', 'archives', 'sherpa-onnx-moonshine-tiny-en-int8.tar.bz2'));
    server.files.set('/any/sherpa-onnx-moonshine-tiny-en-int8.tar.bz2', { body: archive });
    const url = `${server.url}/any/sherpa-onnx-moonshine-tiny-en-int8.tar.bz2`;
    const sha = createHash('sha256').update(archive).digest('hex');
    const added = await run('add', url, '--sha256', sha);
    expect(added.stderr + added.stdout).toContain('sherpa-onnx-moonshine-tiny-en-int8');
    expect(added).toMatchObject({ code: 0, stdout: `sherpa-onnx-moonshine-tiny-en-int8 installed in ${join(dir, 'models', 'sherpa-onnx-moonshine-tiny-en-int8')}\n` });
    const list = JSON.parse((await run('list', '--json')).stdout) as Array<{ id: string; state: string; family: string; source: string }>;
    expect(list.find((p) => p.id === 'sherpa-onnx-moonshine-tiny-en-int8')).toMatchObject({ state: 'installed', family: 'moonshine', source: 'url' });

    const wrong = await run('add', url, '--sha256', '0'.repeat(64), '--id', 'tampered');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('tampered: checksum_mismatch:');
    expect(wrong.stderr).toContain('the file was deleted');
    expect(await run('add', url)).toMatchObject({ code: 1, stderr: expect.stringContaining("required option '--sha256 <hex>' not specified") });
  });
});
