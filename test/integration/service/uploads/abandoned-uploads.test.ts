/**
 * An upload cut off by the death of the service is not kept for ever (service/uploads/abandoned-uploads.ts): a real
 * `voxdesk serve` is SIGKILLed while a body arrives; its folder stays behind, marked as still arriving; once nothing
 * has been written to it for the abandonment age, the next start deletes it, while the upload of a job that was
 * accepted stays untouched. The sweep's rules are checked on their own too: a folder whose body arrived whole, or
 * one still being written, is never deleted.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ABANDONED_UPLOAD_MS, RECEIVING_MARKER, sweepAbandonedUploads } from '../../../../src-main/service/uploads/abandoned-uploads.js';
import { Client, form } from '../../../helpers/http-client.js';
import { startServeProcess, type ServeProcess } from '../../../helpers/service.js';
import { SHARED } from '../../../helpers/system.js';
import { scaled } from '../../../helpers/time-scale.js';
import { until } from '../../../helpers/wait.js';

const KEY = 'vdk_' + 'U'.repeat(32);
const dirs: string[] = [];
const running: ServeProcess[] = [];
afterAll(() => {
  for (const serve of running) serve.child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'voxdesk-abandoned-'));
  dirs.push(dir);
  return dir;
}

/** Every upload folder under the data dir's uploads (one folder per account, one per upload). */
function uploadFolders(dataDir: string): string[] {
  const root = join(dataDir, 'uploads');
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((account) => readdirSync(join(root, account)).map((upload) => join(root, account, upload)));
}

/** Makes `dir` and everything in it look last written `ago` ms before now. */
function age(dir: string, ago: number): void {
  const then = new Date(Date.now() - ago);
  for (const name of readdirSync(dir)) utimesSync(join(dir, name), then, then);
  utimesSync(dir, then, then);
}

/** This file's waits (helpers/wait.ts). */
const WAIT = { timeoutMs: scaled(60_000) };

describe('abandoned uploads', () => {
  it('an upload cut off by a SIGKILL of the service is deleted by a later start, an accepted one kept', async () => {
    const dataDir = join(tempDir(), 'data');
    let serve = await startServeProcess(dataDir, ['--workers', '1', '--hold-seconds', '0'], { VOXDESK_API_KEY: KEY });
    running.push(serve);
    // An accepted upload: its job keeps its recording.
    const audio = new Uint8Array(readFileSync(join(SHARED, 'audio/jfk.wav')));
    const accepted = await fetch(`${serve.url}/v1/speech-to-text`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: form([{ name: 'model', value: 'pocketsphinx-en-us' }, { name: 'file', file: { name: 'kept.wav', data: audio } }]),
    });
    expect(accepted.status).toBeLessThan(300);
    await accepted.arrayBuffer();
    const [kept] = uploadFolders(dataDir);
    expect(kept && existsSync(join(kept, RECEIVING_MARKER))).toBe(false);

    // A body that has begun to arrive when the service dies.
    const socket = connect(Number(new URL(serve.url).port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(
      `POST /v1/speech-to-text HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 10000000\r\n\r\n` +
        `--b\r\nContent-Disposition: form-data; name="model"\r\n\r\npocketsphinx-en-us\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="cut.wav"\r\n\r\n`,
    );
    socket.write(Buffer.from(audio.subarray(0, 100_000)));
    const cut = await until(
      'the cut upload on disk',
      () => uploadFolders(dataDir).find((f) => f !== kept && readdirSync(f).some((n) => n.endsWith('cut.wav'))),
      (f) => f !== undefined,
      WAIT,
    );
    serve.child.kill('SIGKILL');
    await serve.exited;
    socket.destroy();
    expect(existsSync(join(cut!, RECEIVING_MARKER))).toBe(true);

    // A start within the hour keeps it (it might be another node's upload in progress); one after the hour deletes it.
    serve = await startServeProcess(dataDir, ['--workers', '1'], { VOXDESK_API_KEY: KEY });
    running.push(serve);
    await new Client(serve.url, KEY).get('/v1/jobs');
    expect(existsSync(cut!)).toBe(true);
    serve.child.kill('SIGKILL');
    await serve.exited;
    age(cut!, ABANDONED_UPLOAD_MS + 60_000);
    age(kept!, ABANDONED_UPLOAD_MS + 60_000);
    serve = await startServeProcess(dataDir, ['--workers', '1'], { VOXDESK_API_KEY: KEY });
    running.push(serve);
    await until('the abandoned upload to be deleted', () => existsSync(cut!), (exists) => !exists, WAIT);
    expect(existsSync(kept!)).toBe(true);
    serve.child.kill('SIGTERM');
    await serve.exited;
  }, scaled(180_000));

  it('deletes only marked folders nothing was written to for the abandonment age', async () => {
    const uploads = tempDir();
    const folder = (name: string, marked: boolean, agoMs: number): string => {
      const dir = join(uploads, 'acct_1', name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, '00-a.wav'), 'x');
      if (marked) writeFileSync(join(dir, RECEIVING_MARKER), '');
      age(dir, agoMs);
      return dir;
    };
    const abandoned = folder('up_abandoned', true, ABANDONED_UPLOAD_MS + 1000);
    const arriving = folder('up_arriving', true, 1000);
    const whole = folder('up_whole', false, 10 * ABANDONED_UPLOAD_MS);
    expect(await sweepAbandonedUploads(uploads)).toBe(1);
    expect([existsSync(abandoned), existsSync(arriving), existsSync(whole)]).toEqual([false, true, true]);
    expect(await sweepAbandonedUploads(join(uploads, 'none'))).toBe(0);
  });
});
