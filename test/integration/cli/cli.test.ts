/**
 * The voxdesk command as users run it (real child processes): serve's first line and graceful SIGTERM, kill -9 and
 * restart on the same data dir, keys create, VOXDESK_API_KEY, speak with the real eSpeak NG engine, transcribe with
 * PocketSphinx (srt, the readable txt, docx), bad options.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../src-main/common/api-types.js';
import { ROOT, startServeProcess } from '../../helpers/service.js';
import { requireFile, SHARED } from '../../helpers/system.js';
import { Client, expectError, json } from '../../helpers/http-client.js';
import { scaled } from '../../helpers/time-scale.js';

const run = promisify(execFile);
const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'voxdesk-cli-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function voxdesk(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ stdout: string; stderr: string; code: number }> {
  return run(process.execPath, [join(ROOT, 'bin/voxdesk.js'), ...args], { cwd: ROOT, env: { ...process.env, ...env }, timeout: scaled(120_000) }).then(
    ({ stdout, stderr }) => ({ stdout, stderr, code: 0 }),
    (error: { stdout: string; stderr: string; code: number }) => ({ stdout: error.stdout, stderr: error.stderr, code: error.code }),
  );
}

describe('voxdesk serve', () => {
  it('prints exactly "voxdesk listening on http://HOST:PORT" first, registers VOXDESK_API_KEY, stops cleanly on SIGTERM', async () => {
    const dataDir = tempDir();
    const key = 'vdk_scripted_key_for_tests_0001';
    const serve = await startServeProcess(dataDir, [], { VOXDESK_API_KEY: key });
    expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const api = new Client(serve.url, key);
    expect((await api.get('/v1/queue')).status).toBe(200);
    await expectError(new Client(serve.url, 'vdk_wrong').get('/v1/queue'), 401, 'unauthorized');
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toEqual({ code: 0, signal: null });
    expect(serve.stderr()).toContain('SIGTERM');
  });

  it('survives kill -9: a restart on the same data dir serves the jobs written before', async () => {
    const dataDir = tempDir();
    const { stdout } = await voxdesk(['keys', 'create', '--data-dir', dataDir]);
    const key = stdout.trim();
    const first = await startServeProcess(dataDir);
    const api = new Client(first.url, key);
    const job = await json<Job>(api.postJson('/v1/text-to-speech', { model: 'espeak-ng', text: 'before the crash' }));
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    const second = await startServeProcess(dataDir);
    const again = new Client(second.url, key);
    const read = await json<Job>(again.get(`/v1/text-to-speech/${job.id}`));
    expect(read.id).toBe(job.id);
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  });

  it('bad options exit 1 with a message and no listening line', async () => {
    const r = await voxdesk(['serve', '--port', 'abc', '--data-dir', tempDir()]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/port/);
    const ui = await voxdesk(['serve', '--port', '0', '--ui', join(tempDir(), 'missing'), '--data-dir', tempDir()]);
    expect(ui.code).toBe(1);
    expect(ui.stderr).toMatch(/index.html|no built UI/);
  });
});

describe('voxdesk keys create', () => {
  it('prints one key and nothing else', async () => {
    const dataDir = tempDir();
    const r = await voxdesk(['keys', 'create', '--account', 'alice', '--data-dir', dataDir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^vdk_[0-9A-Za-z]{32}\n$/);
    expect(r.stderr).toBe('');
  });
});

describe('voxdesk speak', () => {
  it('speaks with the built-in eSpeak NG voice into a WAV file and prints its path, quiet about secrets without a keyring', async () => {
    const dataDir = tempDir();
    const out = join(dataDir, 'hello.wav');
    // No OS keyring answers (no D-Bus session): nothing is stored, so nothing is said about where secrets would go.
    const r = await voxdesk(['speak', 'Hello from the command line', '--voice', 'en-us', '--out', out, '--data-dir', dataDir], {
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(dataDir, 'no-bus')}`,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${out}\n`);
    expect(r.stderr).not.toContain('secrets:');
    const wav = readFileSync(out);
    expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(wav.length).toBeGreaterThan(10_000);
  });
  it('an unknown voice fails with the API error code and exit 1', async () => {
    const dataDir = tempDir();
    const r = await voxdesk(['speak', 'x', '--voice', 'no-such-voice', '--data-dir', dataDir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/voice/);
  });
});

describe('voxdesk voices', () => {
  it("lists eSpeak's voices with their names in UTF-8 (Māori, Norwegian Bokmål)", async () => {
    const dataDir = tempDir();
    const r = await voxdesk(['voices', '--data-dir', dataDir]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(100);
    expect(lines.find((l) => /^en-us\s/.test(l))).toMatch(/English \(America\)$/);
    expect(lines.find((l) => /^mi\s/.test(l))).toMatch(/Māori$/);
    expect(lines.find((l) => /^nb\s/.test(l))).toMatch(/Norwegian Bokmål$/);
    expect(r.stdout).not.toMatch(/Ã|Ä\u0081/);
  });
});

describe('voxdesk transcribe', () => {
  it('transcribes a real recording with PocketSphinx into DIR/<name>.srt', async () => {
    requireFile('/usr/share/pocketsphinx/model/en-us', 'pocketsphinx-en-us');
    const dataDir = tempDir();
    const out = join(dataDir, 'out');
    const r = await voxdesk(['transcribe', join(SHARED, 'audio/jfk.wav'), '--model', 'pocketsphinx-en-us', '--format', 'srt', '--out', out, '--data-dir', dataDir]);
    expect(r.code, r.stderr).toBe(0);
    const srt = readFileSync(join(out, 'jfk.srt'), 'utf8');
    expect(srt).toMatch(/^1\n\d\d:\d\d:\d\d,\d{3} --> /);
    expect(srt.toLowerCase()).toContain('country');
  });
  it('prints the readable transcript (the export route\'s txt) and writes a Word file with --format docx', async () => {
    requireFile('/usr/share/pocketsphinx/model/en-us', 'pocketsphinx-en-us');
    const dataDir = tempDir();
    const txt = await voxdesk(['transcribe', join(SHARED, 'audio/jfk.wav'), '--model', 'pocketsphinx-en-us', '--data-dir', dataDir]);
    expect(txt.code, txt.stderr).toBe(0);
    expect(txt.stdout).toMatch(/^jfk\n\n\[00:00\] \S/);
    expect(txt.stdout.toLowerCase()).toContain('country');
    const out = join(dataDir, 'out');
    const docx = await voxdesk(['transcribe', join(SHARED, 'audio/jfk.wav'), '--model', 'pocketsphinx-en-us', '--format', 'docx', '--out', out, '--data-dir', dataDir]);
    expect(docx.code, docx.stderr).toBe(0);
    const xml = await (await JSZip.loadAsync(readFileSync(join(out, 'jfk.docx')))).file('word/document.xml')!.async('string');
    expect(xml).toContain('>jfk</w:t>');
    expect(xml.toLowerCase()).toContain('country');
  }, scaled(240_000));
  it('--format docx without --out is refused before anything is transcribed', async () => {
    const r = await voxdesk(['transcribe', join(SHARED, 'audio/jfk.wav'), '--format', 'docx', '--data-dir', tempDir()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--format docx .*--out/);
  });
  it('a missing file fails with exit 1 and a message', async () => {
    const r = await voxdesk(['transcribe', join(tempDir(), 'nope.wav'), '--data-dir', tempDir()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/nope\.wav|ENOENT/);
  });
});
