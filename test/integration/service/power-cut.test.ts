/**
 * A power cut, not only a kill (trust review 2, item 13): `voxdesk serve` runs on a file system that keeps every
 * write in memory until it is fsync'ed (test/helpers/power-cut-fs.py, FUSE), while a client submits speech jobs and
 * edits a transcript, four requests at a time. At a random moment the service and the file system are killed
 * together: every write never synced is gone, as when the power fails. On what was synced, every job the client was
 * told succeeded is there, succeeded and charged, and every transcript revision it was told was saved is there.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Job } from '../../../src-main/common/api-types.js';
import { openDatabase } from '../../../src-main/store/database.js';
import { ROOT, startServeProcess, type ServeProcess } from '../../helpers/service.js';
import { requireCommand, SHARED } from '../../helpers/system.js';
import { scaled } from '../../helpers/time-scale.js';

const PYTHON = '/usr/bin/python3';
const KEY = 'vdk_' + 'P'.repeat(32);
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** Debian's python3 with pyfuse3 and the fusermount3 program (packages python3-pyfuse3 and fuse3). */
function requireFuse(): string {
  const fusermount = requireCommand('fusermount3', 'fuse3');
  const probe = spawnSync(PYTHON, ['-c', 'import pyfuse3, trio'], { encoding: 'utf8' });
  if (probe.status !== 0) throw new Error(`${PYTHON} cannot import pyfuse3 (install python3-pyfuse3): ${probe.stderr}`);
  if (!existsSync('/dev/fuse')) throw new Error('/dev/fuse is missing: the power-cut file system cannot be mounted');
  return fusermount;
}

async function mount(backing: string, mountpoint: string): Promise<ChildProcess> {
  const fs = spawn(PYTHON, [join(ROOT, 'test/helpers/power-cut-fs.py'), backing, mountpoint], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  fs.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    fs.stdout!.once('data', () => resolve());
    fs.once('exit', (code) => reject(new Error(`the power-cut file system exited (${code}): ${stderr}`)));
  });
  return fs;
}

interface Acknowledged {
  jobs: string[];
  revisions: Array<{ jobId: string; revision: number }>;
}

async function speak(url: string, text: string): Promise<Job | null> {
  const response = await fetch(`${url}/v1/text-to-speech`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'espeak-ng', text, params: { output_format: 'wav' } }),
  }).catch(() => null);
  if (response?.status !== 200) return null;
  return (await response.json().catch(() => null)) as Job | null;
}

async function transcribe(url: string): Promise<Job> {
  const form = new FormData();
  form.append('model', 'pocketsphinx-en-us');
  form.append('file', new Blob([readFileSync(join(SHARED, 'audio/jfk.wav'))]), 'jfk.wav');
  const response = await fetch(`${url}/v1/speech-to-text`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: form });
  expect(response.status).toBe(200);
  return (await response.json()) as Job;
}

/** Edits segment 0 again and again, each on the revision the last one made; records each one the service saved. */
async function keepEditing(url: string, jobId: string, acknowledged: Acknowledged, running: () => boolean): Promise<void> {
  let base = 0;
  for (let n = 0; running(); n += 1) {
    const response = await fetch(`${url}/v1/speech-to-text/${jobId}/transcript`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ base_revision: base, segments: [{ index: 0, text: `edit number ${n}` }] }),
    }).catch(() => null);
    if (response?.status !== 200) return;
    const saved = (await response.json().catch(() => null)) as { revision: number } | null;
    if (!saved) return;
    acknowledged.revisions.push({ jobId, revision: saved.revision });
    base = saved.revision;
  }
}

describe('a power cut', () => {
  it('loses nothing the client was told: jobs that succeeded, their charges, saved revisions', { timeout: scaled(300_000) }, async () => {
    const fusermount = requireFuse();
    requireCommand('pocketsphinx_continuous', 'pocketsphinx');
    const dir = mkdtempSync(join(tmpdir(), 'voxdesk-power-cut-'));
    const backing = join(dir, 'disk');
    const mountpoint = join(dir, 'mnt');
    mkdirSync(backing);
    mkdirSync(mountpoint);
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const fs = await mount(backing, mountpoint);
    cleanups.push(() => {
      fs.kill('SIGKILL');
      spawnSync(fusermount, ['-u', '-z', mountpoint]);
    });
    const pricing = join(dir, 'pricing.json');
    writeFileSync(pricing, JSON.stringify({ models: { 'espeak-ng': { request_fee_usd: 0.01, per_minute_usd: 0.006 } } }));
    let serve: ServeProcess | null = await startServeProcess(join(mountpoint, 'data'), ['--workers', '1', '--pricing-file', pricing], { VOXDESK_API_KEY: KEY });
    cleanups.push(() => serve?.child.kill('SIGKILL'));

    const acknowledged: Acknowledged = { jobs: [], revisions: [] };
    const transcript = await transcribe(serve.url);
    expect(transcript.status).toBe('succeeded');
    acknowledged.jobs.push(transcript.id);

    let running = true;
    const speakers = Array.from({ length: 3 }, async (_, lane) => {
      for (let n = 0; running; n += 1) {
        const job = await speak(serve!.url, `Lane ${lane}, sentence ${n}.`);
        if (job?.status === 'succeeded' && running) acknowledged.jobs.push(job.id);
      }
    });
    const editing = keepEditing(serve.url, transcript.id, acknowledged, () => running);
    // The cut comes at a random moment once work is flowing: after a few acknowledged jobs (4 to 7) and a saved
    // revision, then up to half a second later — counted in work, not in seconds, so a busy machine cuts as late.
    const wanted = 4 + Math.floor(Math.random() * 4);
    const deadline = Date.now() + scaled(120_000);
    while (acknowledged.jobs.length < wanted || acknowledged.revisions.length === 0) {
      if (Date.now() > deadline) throw new Error(`work never flowed: ${acknowledged.jobs.length} jobs and ${acknowledged.revisions.length} revisions acknowledged`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 500));
    serve.child.kill('SIGKILL');
    fs.kill('SIGKILL');
    running = false;
    await Promise.all([...speakers, editing]);
    await serve.exited;
    serve = null;
    spawnSync(fusermount, ['-u', '-z', mountpoint]);

    expect(acknowledged.jobs.length).toBeGreaterThan(3);
    expect(acknowledged.revisions.length).toBeGreaterThan(0);
    // What the disk holds after the cut: opened as the next start would open it.
    const db = openDatabase(join(backing, 'data', 'voxdesk.db'));
    try {
      const missing = acknowledged.jobs.filter((id) => db.prepare("SELECT 1 FROM jobs WHERE id = ? AND status = 'succeeded'").get(id) === undefined);
      expect(missing).toEqual([]);
      const speech = acknowledged.jobs.filter((id) => id !== transcript.id);
      const uncharged = speech.filter((id) => db.prepare("SELECT 1 FROM ledger WHERE job_id = ? AND kind = 'usage'").get(id) === undefined);
      expect(uncharged).toEqual([]);
      const lost = acknowledged.revisions.filter(({ jobId, revision }) => db.prepare('SELECT 1 FROM transcript_revisions WHERE job_id = ? AND revision = ?').get(jobId, revision) === undefined);
      expect(lost).toEqual([]);
    } finally {
      db.close();
    }
  });
});
