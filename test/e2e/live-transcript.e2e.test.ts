/**
 * A long transcription in the browser UI (Chromium against `voxdesk serve --ui`, the tiny NeMo CTC model and Silero
 * VAD imported through the API): the text appears while the job runs and does not move while the person reads
 * further up, Pause and Resume work from the file's row, and the service killed with kill -9 half way and started
 * again (the page opened at the address it prints, as a person logs in again) shows the text already committed at
 * once, says where the job resumed, and ends with one transcript.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED } from '../helpers/system.js';
import { makeLongRecording } from '../helpers/long-recording.js';
import { makeTempDir } from '../helpers/audio-fixtures.js';
import { ROOT, startServeUi, type ServedUi } from './serve-ui.js';
import { openLoggedInPage, type Chromium } from './logged-in-page.js';
import { scaled } from '../helpers/time-scale.js';

const SHOTS = join(ROOT, 'test-artifacts', 'screenshots');
const ENV = { VOXDESK_TEST_SEGMENT_DELAY_MS: '300' };
const temp = makeTempDir('voxdesk-e2e-live-');
let served: ServedUi;
let restarted: ChildProcess | null = null;
let browser: Chromium;
let page: Page;
let recording = '';
const pageErrors: string[] = [];

/** `voxdesk serve --ui` again on the same port and data dir, as a person restarting it would; its login address. */
async function restartOnSamePort(): Promise<string> {
  const port = new URL(served.url).port;
  restarted = spawn(process.execPath, ['bin/voxdesk.js', 'serve', '--port', port, '--ui', '--data-dir', served.dataDir], {
    cwd: ROOT,
    env: { ...process.env, ...ENV, VOXDESK_DATA_DIR: served.dataDir, VOXDESK_API_KEY: served.apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const login = new Promise<string>((resolve) =>
    createInterface({ input: restarted!.stderr! }).on('line', (line) => {
      const printed = /^browser UI: (http:\/\/\S+\/#token=\S+)$/.exec(line);
      if (printed) resolve(printed[1]!);
    }),
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: restarted!.stdout! }).once('line', resolve);
    restarted!.once('exit', (code) => reject(new Error(`voxdesk serve exited with ${code}`)));
  });
  expect(line).toBe(`voxdesk listening on ${served.url}`);
  return login;
}

describe('a transcription that fills in while it runs (browser mode)', () => {
  beforeAll(async () => {
    recording = makeLongRecording(temp.dir);
    served = await startServeUi({ env: ENV });
    const headers = { authorization: `Bearer ${served.apiKey}`, 'content-type': 'application/json' };
    for (const body of [
      { path: join(SHARED, 'models/tiny/tiny-nemo-ctc'), id: 'tiny-ctc', languages: ['en'] },
      { path: join(SHARED, 'models/silero_vad_v5.onnx'), id: 'silero-vad-test' },
    ]) {
      const r = await fetch(`${served.url}/v1/local/models/import`, { method: 'POST', headers, body: JSON.stringify(body) });
      expect(r.status, await r.text()).toBe(202);
      for (let state = ''; state !== 'installed'; await new Promise((resolve) => setTimeout(resolve, 100))) {
        state = ((await (await fetch(`${served.url}/v1/local/models/${body.id}`, { headers })).json()) as { state: string }).state;
        if (state === 'failed') throw new Error(`importing ${body.id} failed`);
      }
    }
    ({ browser, page } = await openLoggedInPage(served, pageErrors));
  }, scaled(120_000));

  afterAll(async () => {
    await browser?.close();
    if (restarted && restarted.exitCode === null) {
      const exited = new Promise((resolve) => restarted!.once('exit', resolve));
      restarted.kill('SIGTERM');
      await exited;
    }
    await served?.stop();
    temp.cleanup();
  });

  it('shows the text as it is recognised, pauses, resumes, survives kill -9 and ends with one transcript', async () => {
    const panel = page.locator('#panel-transcribe');
    const picker = panel.locator('#asr-model');
    await expect.poll(() => picker.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toContain('tiny-ctc');
    await picker.selectOption('tiny-ctc');
    await panel.locator('[data-testid="file-input"]').setInputFiles(recording);
    const row = panel.locator('.list li').first();
    const live = panel.locator('[data-testid="live-segments"]');
    const segments = live.locator('.segment');

    // Text appears while the job runs.
    await expect.poll(() => segments.count(), { timeout: scaled(120_000) }).toBeGreaterThanOrEqual(3);
    expect(await row.locator('[data-status]').getAttribute('data-status')).toBe('running');
    await page.screenshot({ path: join(SHOTS, 'transcribe-live.png'), fullPage: true });

    // Reading further up: new text is added below without moving what is read, and a button says there is more.
    await expect.poll(() => live.evaluate((box) => box.scrollHeight - box.clientHeight > 150), { timeout: scaled(120_000) }).toBe(true);
    await live.evaluate((box) => (box.scrollTop = 0));
    const firstText = await segments.first().innerText();
    const firstTop = await segments.first().evaluate((el) => el.getBoundingClientRect().top);
    const count = await segments.count();
    await expect.poll(() => segments.count(), { timeout: scaled(60_000) }).toBeGreaterThan(count);
    expect(await live.evaluate((box) => box.scrollTop)).toBe(0);
    expect(await segments.first().innerText()).toBe(firstText);
    expect(await segments.first().evaluate((el) => el.getBoundingClientRect().top)).toBe(firstTop);
    const more = panel.getByRole('button', { name: /new segments? below/ });
    await more.click();
    await expect.poll(() => live.evaluate((box) => box.scrollTop + box.clientHeight >= box.scrollHeight - 24)).toBe(true);

    // Pause from the row: it stops after its current segment and says so; nothing shown is lost.
    await row.getByRole('button', { name: /^Pause / }).click();
    await expect.poll(() => row.locator('.chip').innerText(), { timeout: scaled(60_000) }).toBe('Paused');
    await expect.poll(() => panel.locator('.live [role="status"]').innerText()).toMatch(/Paused at \d+ %/);
    const pausedCount = await segments.count();
    await page.waitForTimeout(1500);
    expect(await segments.count()).toBe(pausedCount);
    await page.screenshot({ path: join(SHOTS, 'transcribe-paused.png'), fullPage: true });

    // Resume: it continues after its last segment and says where.
    await row.getByRole('button', { name: /^Resume / }).click();
    await expect.poll(() => panel.locator('[data-testid="resumed-at"]').innerText(), { timeout: scaled(60_000) }).toMatch(/^Resumed at \d+:\d\d$/);
    await expect.poll(() => segments.count(), { timeout: scaled(60_000) }).toBeGreaterThan(pausedCount);

    // kill -9 half way, start again and open the address it prints: the job is there at once with the text committed
    // so far, continuing from its checkpoint, and says where (a later point than the resume after the pause).
    const resumedAfterPause = await panel.locator('[data-testid="resumed-at"]').innerText();
    const shownBeforeKill = await segments.allInnerTexts();
    served.child.kill('SIGKILL');
    await new Promise((resolve) => served.child.once('exit', resolve));
    const sidebar = page.locator('[role="status"][aria-live="polite"]');
    await expect.poll(() => sidebar.innerText(), { timeout: scaled(60_000) }).toMatch(/unreachable/i);
    expect(await segments.allInnerTexts()).toEqual(shownBeforeKill); // still shown while the service is down
    const login = await restartOnSamePort();
    await page.goto('about:blank'); // a new page load (the address differs from the current one only by its #token)
    await page.goto(login);
    const earlier = panel.getByRole('list', { name: 'Transcriptions from before' }).locator('li').first();
    await earlier.getByRole('button').first().click();
    await expect.poll(() => segments.count(), { timeout: scaled(30_000) }).toBeGreaterThanOrEqual(shownBeforeKill.length);
    expect((await segments.allInnerTexts()).slice(0, shownBeforeKill.length)).toEqual(shownBeforeKill);
    await expect.poll(() => panel.locator('[data-testid="resumed-at"]').innerText(), { timeout: scaled(60_000) }).toMatch(/^Resumed at \d+:\d\d$/);
    expect(await panel.locator('[data-testid="resumed-at"]').innerText()).not.toBe(resumedAfterPause);
    expect(await earlier.innerText()).toMatch(/resumed at \d+:\d\d/);
    await page.screenshot({ path: join(SHOTS, 'transcribe-resumed.png'), fullPage: true });

    // One transcript at the end.
    const transcript = panel.locator('.transcript');
    await expect.poll(() => transcript.locator('.seg-text .word').count(), { timeout: scaled(240_000) }).toBeGreaterThan(100);
    const headers = { authorization: `Bearer ${served.apiKey}` };
    const jobs = (await (await fetch(`${served.url}/v1/jobs?product=speech-to-text`, { headers })).json()) as { data: { status: string }[] };
    expect(jobs.data.map((j) => j.status)).toEqual(['succeeded']);
    expect(pageErrors).toEqual([]);
  }, scaled(600_000));
});
