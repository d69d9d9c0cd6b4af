/**
 * Watch folders with real files, a real SQLite file and the real service (test-engine transcriptions, and one real
 * PocketSphinx one): files already there are picked up, only recordings, once each after they stop growing, many at
 * once, a renamed copy is not redone, exports never replace a person's file, output_dir mirrors subfolders, the files
 * are the export route's (readable TXT, DOCX), and a failed job shows in the folder's status.
 */
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../src-main/common/api-types.js';
import { audio, Client, json } from '../../helpers/http-client.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { SHARED, requireCommand, requireFile } from '../../helpers/system.js';
import { FAST_WATCH, folderStatus, namesIn, saveFolders, waitForFolder } from '../../helpers/watch-folders.js';
import { scaled } from '../../helpers/time-scale.js';

let t: TestService;
let api: Client;
let work: string;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'voxdesk-watch-'));
  t = await startTestService({ watchTimings: FAST_WATCH, workers: 2 });
  api = new Client(t.url, t.key);
});
afterAll(async () => {
  await t?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A distinct fake recording (the test engine does not decode it). */
function recording(seed: number, bytes = 4000): Uint8Array {
  const data = audio(bytes);
  data[0] = seed & 0xff;
  data[1] = (seed >> 8) & 0xff;
  return data;
}

async function jobsNamed(name: string): Promise<Job[]> {
  const { data } = await json<{ data: Job[] }>(api.get('/v1/jobs?limit=100'));
  return data.filter((job) => job.name === name);
}

const SEGMENTS = { behaviour: 'segments', count: 2, ms: 10 };
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('watch folders', () => {
  it('transcribes the recordings already there, writes the exports beside them, and never replaces a person\'s file', async () => {
    const dir = join(work, 'existing');
    mkdirSync(dir);
    writeFileSync(join(dir, 'interview.wav'), recording(1));
    writeFileSync(join(dir, 'Memo 2.MP3'), recording(2));
    writeFileSync(join(dir, 'interview.srt'), 'my own subtitles\n');
    // Not recordings: a text file, a hidden file, a download in progress, an Office lock.
    writeFileSync(join(dir, 'notes.txt'), 'notes');
    writeFileSync(join(dir, '.hidden.wav'), recording(3));
    writeFileSync(join(dir, 'big.wav.part'), recording(4));
    writeFileSync(join(dir, '~$memo.wav'), recording(5));

    const [saved] = await saveFolders(api, [{ path: dir, model: 'test-asr', params: SEGMENTS, formats: ['srt', 'txt'] }]);
    expect(saved).toMatchObject({ path: dir, model: 'test-asr', params: SEGMENTS, output_dir: null, formats: ['srt', 'txt'] });
    expect(['scanning', 'watching']).toContain(saved!.status.state);

    const done = await waitForFolder(api, dir, 'two files done', (f) => f.status.files_done === 2);
    expect(done.status).toMatchObject({ state: 'watching', error: null, files_queued: 0, files_failed: 0, files_skipped: 0, files_waiting: 0 });
    expect(done.status.last_scan_at).toMatch(/^\d{4}-/);
    expect(readFileSync(join(dir, 'interview.srt'), 'utf8')).toBe('my own subtitles\n');
    expect(namesIn(dir)).toEqual(
      ['.hidden.wav', 'Memo 2.MP3', 'Memo 2.srt', 'Memo 2.txt', 'big.wav.part', 'interview (1).srt', 'interview.srt', 'interview.txt', 'interview.wav', 'notes.txt', '~$memo.wav'].sort(),
    );
    expect(readFileSync(join(dir, 'interview (1).srt'), 'utf8')).toMatch(/^1\n00:00:00,000 --> 00:00:0\d,\d{3}\nsegment/);
    // The readable layout of the export route, byte for byte what it answers for the same job.
    const txt = readFileSync(join(dir, 'interview.txt'), 'utf8');
    expect(txt).toBe('interview\n\n[00:00] segment 0\n[00:10] segment 1\n');
    const [job] = await jobsNamed('interview.wav');
    expect(job).toMatchObject({ status: 'succeeded', model_id: 'test-asr', product: 'speech-to-text' });
    expect(await (await api.get(`/v1/speech-to-text/${job!.id}/export?format=txt`)).text()).toBe(txt);
    expect(await jobsNamed('.hidden.wav')).toEqual([]);
  });

  it('queues a file written in chunks over a few seconds once, after it stops growing', async () => {
    const dir = join(work, 'growing');
    mkdirSync(dir);
    await saveFolders(api, [{ path: dir, model: 'test-asr', params: SEGMENTS, formats: ['srt'] }]);
    await waitForFolder(api, dir, 'watching', (f) => f.status.state === 'watching');
    const file = join(dir, 'long take.wav');
    writeFileSync(file, recording(10, 1000));
    // A chunk every 150 ms for 3 s: always less than the 0.8 s the file must stay unchanged.
    for (let i = 0; i < 20; i++) {
      await sleep(150);
      appendFileSync(file, recording(11 + i, 1000));
    }
    const done = await waitForFolder(api, dir, 'the file done', (f) => f.status.files_done === 1);
    expect(done.status.files_failed).toBe(0);
    const jobs = await jobsNamed('long take.wav');
    expect(jobs).toHaveLength(1);
    const row = t.service.db.prepare('SELECT size_bytes FROM watch_files WHERE path = ?').get(file) as { size_bytes: number };
    expect(row.size_bytes).toBe(21_000);
    expect(namesIn(dir)).toEqual(['long take.srt', 'long take.wav']);
  });

  it('takes many files at once, each once', async () => {
    const dir = join(work, 'many');
    mkdirSync(dir);
    for (let i = 0; i < 24; i++) writeFileSync(join(dir, `take-${i}.wav`), recording(100 + i));
    await saveFolders(api, [{ path: dir, model: 'test-asr', formats: ['json'] }]);
    // And more while it watches.
    for (let i = 24; i < 30; i++) writeFileSync(join(dir, `take-${i}.wav`), recording(100 + i));
    const done = await waitForFolder(api, dir, '30 files done', (f) => f.status.files_done === 30, scaled(120_000));
    expect(done.status).toMatchObject({ files_queued: 0, files_failed: 0, files_skipped: 0 });
    const names = namesIn(dir);
    expect(names.filter((n) => n.endsWith('.json'))).toHaveLength(30);
    expect(names.filter((n) => n.includes('('))).toEqual([]);
    const count = t.service.db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE name LIKE 'take-%'").get() as { n: number };
    expect(count.n).toBe(30);
    }, scaled(180_000));

  it('does not redo a renamed copy or a moved file, but does a file whose content changed', async () => {
    const dir = join(work, 'copies');
    mkdirSync(join(dir, 'inbox'), { recursive: true });
    writeFileSync(join(dir, 'original.wav'), recording(300));
    await saveFolders(api, [{ path: dir, model: 'test-asr', formats: ['txt'] }]);
    await waitForFolder(api, dir, 'original done', (f) => f.status.files_done === 1);
    copyFileSync(join(dir, 'original.wav'), join(dir, 'inbox', 'copy of original.wav'));
    renameSync(join(dir, 'original.wav'), join(dir, 'renamed.wav'));
    const skipped = await waitForFolder(api, dir, 'two skipped', (f) => f.status.files_skipped === 2);
    expect(skipped.status).toMatchObject({ files_done: 1, files_queued: 0 });
    expect(await jobsNamed('renamed.wav')).toEqual([]);
    expect(await jobsNamed('copy of original.wav')).toEqual([]);
    expect(namesIn(join(dir, 'inbox'))).toEqual(['copy of original.wav']);

    writeFileSync(join(dir, 'renamed.wav'), recording(301));
    await waitForFolder(api, dir, 'the changed file done', (f) => f.status.files_done === 2);
    expect(await jobsNamed('renamed.wav')).toHaveLength(1);
    expect(namesIn(dir)).toEqual(['inbox', 'original.txt', 'renamed.txt', 'renamed.wav']);
  });

  it('writes to output_dir, mirroring subfolders, creating them as needed', async () => {
    const dir = join(work, 'recorder');
    const out = join(work, 'transcripts', 'nested');
    mkdirSync(join(dir, '2026-05-01'), { recursive: true });
    writeFileSync(join(dir, '2026-05-01', 'REC001.WAV'), recording(400));
    writeFileSync(join(dir, 'REC002.wav'), recording(401));
    await saveFolders(api, [{ path: dir, model: 'test-asr', params: SEGMENTS, output_dir: out, formats: ['vtt', 'docx'] }]);
    await waitForFolder(api, dir, 'two done', (f) => f.status.files_done === 2);
    expect(namesIn(out)).toEqual(['2026-05-01', 'REC002.docx', 'REC002.vtt']);
    expect(namesIn(join(out, '2026-05-01'))).toEqual(['REC001.docx', 'REC001.vtt']);
    expect(readFileSync(join(out, 'REC002.vtt'), 'utf8')).toMatch(/^WEBVTT/);
    // A Word file: the title, then a paragraph per segment with its time.
    const docx = await JSZip.loadAsync(readFileSync(join(out, 'REC002.docx')));
    const xml = await docx.file('word/document.xml')!.async('string');
    expect([...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1])).toEqual(['REC002', '00:00', 'segment 0', '00:10', 'segment 1']);
    expect(namesIn(dir)).toEqual(['2026-05-01', 'REC002.wav']);
  });

  it('does not follow symbolic links: to a file, to a folder elsewhere, or in the output folder (trust review 2, item 6)', async () => {
    const elsewhere = join(work, 'elsewhere');
    mkdirSync(join(elsewhere, 'private'), { recursive: true });
    writeFileSync(join(elsewhere, 'secret.wav'), recording(700));
    writeFileSync(join(elsewhere, 'private', 'diary.wav'), recording(701));
    const dir = join(work, 'links');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'own.wav'), recording(702));
    writeFileSync(join(dir, 'sub', 'deep.wav'), recording(703));
    symlinkSync(join(elsewhere, 'secret.wav'), join(dir, 'linked.wav'));
    symlinkSync(join(elsewhere, 'private'), join(dir, 'linked-folder'));
    // An output folder whose subfolder (for the recordings in sub/) is a link to another place.
    const out = join(work, 'links-out');
    const redirected = join(work, 'redirected');
    mkdirSync(out);
    mkdirSync(redirected);
    symlinkSync(redirected, join(out, 'sub'));
    await saveFolders(api, [{ path: dir, model: 'test-asr', params: SEGMENTS, output_dir: out, formats: ['srt'] }]);
    const settled = await waitForFolder(api, dir, 'own done, link refused, deep export refused', (f) => f.status.files_done === 1 && f.status.files_failed === 2);
    expect(settled.status.files_done).toBe(1);
    expect(await jobsNamed('linked.wav')).toEqual([]);
    expect(await jobsNamed('diary.wav')).toEqual([]);
    expect(readdirSync(redirected)).toEqual([]);
    expect(namesIn(out)).toEqual(['own.srt', 'sub']);
    expect(existsSync(join(elsewhere, 'secret.srt'))).toBe(false);
    const failures = t.service.repos.db
      .prepare("SELECT path, error_code AS code, error_message AS message FROM watch_files WHERE folder = ? AND state = 'failed' ORDER BY path")
      .all(dir) as Array<{ path: string; code: string; message: string }>;
    expect(failures.map((f) => [f.path, f.code])).toEqual([
      [join(dir, 'linked.wav'), 'symlink_refused'],
      [join(dir, 'sub', 'deep.wav'), 'output_write_failed'],
    ]);
    expect(failures[0]!.message).toMatch(/is a symbolic link; watch folders do not follow links/);
    expect(failures[1]!.message).toMatch(/links-out\/sub is a symbolic link; exports are not written through links/);
  });

  it('shows a failed job and an export that cannot be written in the folder status', async () => {
    const dir = join(work, 'failing');
    mkdirSync(dir);
    writeFileSync(join(dir, 'broken.wav'), recording(500));
    await saveFolders(api, [{ path: dir, model: 'test-asr', params: { behaviour: 'fail', code: 'audio_decode_failed', message: 'not audio' }, formats: ['srt'] }]);
    const failed = await waitForFolder(api, dir, 'one failed', (f) => f.status.files_failed === 1);
    expect(failed.status.last_failure).toMatchObject({ path: join(dir, 'broken.wav'), code: 'audio_decode_failed', message: 'not audio' });
    expect(failed.status.state).toBe('watching');

    // output_dir is a file: the export cannot be written there.
    const blocked = join(work, 'blocked-output');
    writeFileSync(blocked, 'a file, not a folder');
    const dir2 = join(work, 'unwritable');
    mkdirSync(dir2);
    writeFileSync(join(dir2, 'fine.wav'), recording(501));
    await saveFolders(api, [{ path: dir2, model: 'test-asr', output_dir: blocked, formats: ['srt'] }]);
    const unwritable = await waitForFolder(api, dir2, 'export failed', (f) => f.status.files_failed === 1);
    expect(unwritable.status.last_failure).toMatchObject({ code: 'output_write_failed' });
    expect(unwritable.status.last_failure!.message).toMatch(/srt export of fine\.wav could not be written/);
  });

  it('writes the exports of a failed file once its job is retried and succeeds', async () => {
    const dir = join(work, 'retried');
    mkdirSync(dir);
    writeFileSync(join(dir, 'take.wav'), recording(502));
    // The run from the beginning fails before its second segment; a retry continues after the first and succeeds.
    await saveFolders(api, [{ path: dir, model: 'test-asr', params: { ...SEGMENTS, count: 3, fail_at: 1 }, formats: ['srt'] }]);
    const failed = await waitForFolder(api, dir, 'the first run failed', (f) => f.status.files_failed === 1);
    expect(failed.status.files_queued).toBe(0);
    const [job] = await jobsNamed('take.wav');
    expect(job!.status).toBe('failed');

    const retried = await json<Job>(api.post(`/v1/speech-to-text/${job!.id}/retry`));
    expect(retried.id).not.toBe(job!.id);
    const done = await waitForFolder(api, dir, 'the retry done', (f) => f.status.files_done === 1);
    expect(done.status).toMatchObject({ files_failed: 0, files_queued: 0, last_failure: null });
    // The whole transcript: the segment recognised before the failure and the two after the retry.
    const srt = readFileSync(join(dir, 'take.srt'), 'utf8');
    expect(srt.match(/segment/g)).toHaveLength(3);
    expect(srt).toMatch(/^0$[\s\S]*^1$[\s\S]*^2$/m);
    expect(namesIn(dir)).toEqual(['take.srt', 'take.wav']);
  });

  it('refuses a file larger than the model takes, without reading it, and shows why', async () => {
    const dir = join(work, 'large');
    mkdirSync(dir);
    writeFileSync(join(dir, 'huge.wav'), new Uint8Array(64 * 1024 + 1));
    await saveFolders(api, [{ path: dir, model: 'test-asr-small', formats: ['srt'] }]);
    const failed = await waitForFolder(api, dir, 'refused', (f) => f.status.files_failed === 1);
    expect(failed.status.last_failure).toMatchObject({ code: 'file_too_large' });
    expect(await jobsNamed('huge.wav')).toEqual([]);
  });

  it('transcribes a real recording with PocketSphinx and writes its SRT beside it', async () => {
    requireCommand('pocketsphinx_continuous', 'pocketsphinx');
    requireFile('/usr/share/pocketsphinx/model/en-us/en-us/mdef', 'pocketsphinx-en-us');
    const dir = join(work, 'speech');
    mkdirSync(dir);
    copyFileSync(join(SHARED, 'audio', 'jfk.wav'), join(dir, 'jfk.wav'));
    await saveFolders(api, [{ path: dir, model: 'pocketsphinx-en-us', formats: ['srt'] }]);
    await waitForFolder(api, dir, 'jfk done', (f) => f.status.files_done === 1, scaled(120_000));
    const srt = readFileSync(join(dir, 'jfk.srt'), 'utf8');
    expect(srt).toMatch(/^1\n00:00:\d\d,\d{3} --> /);
    expect(srt.toLowerCase()).toContain('country');
    expect((await folderStatus(api, dir)).status.files_failed).toBe(0);
  }, scaled(180_000));
});
