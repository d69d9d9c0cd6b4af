/**
 * Meeting capture as a new user would try it (issue 30's acceptance), in Debian's Chromium against a real
 * `voxdesk serve --ui` whose sound server is a private PulseAudio laid out as a laptop in a call
 * (test/helpers/capture-pulse.ts): on the Live tab's Meeting mode, Start; jfk.wav is said into the microphone while
 * another speaker's recording plays through the speakers; both appear in the transcript labelled "You" and "Other
 * side"; every tab shows that a meeting is being recorded; Stop; the meeting is in Jobs, opens as a transcript with
 * both speakers, and is found by search.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../src-main/common/api-types.js';
import { startCapturePulse, type CapturePulse } from '../helpers/capture-pulse.js';
import { JFK_WAV } from '../helpers/dictation-fixtures.js';
import { requireCommand, requireFile, SHARED } from '../helpers/system.js';
import { openLoggedInPage, type Chromium } from './logged-in-page.js';
import { ROOT, startServeUi, type ServedUi } from './serve-ui.js';

const SHOTS = join(ROOT, 'test-artifacts', 'screenshots');
let pulse: CapturePulse;
let served: ServedUi;
let browser: Chromium;
let page: Page;
let otherSide: string;
const pageErrors: string[] = [];

const lines = (side: 'microphone' | 'system'): Promise<string[]> => page.locator(`[data-testid="capture-transcript"] p[data-side="${side}"]:not(.partial)`).allInnerTexts();

describe('meeting capture in Chromium (browser mode, the service records this machine)', () => {
  beforeAll(async () => {
    requireFile('/usr/share/pocketsphinx/model/en-us/en-us/mdef', 'pocketsphinx-en-us');
    requireCommand('sox', 'sox');
    pulse = startCapturePulse();
    const dir = mkdtempSync(join(tmpdir(), 'voxdesk-meeting-e2e-'));
    const hifi = join(SHARED, 'audio/hifitts-6097');
    const files = readdirSync(hifi).filter((f) => f.endsWith('.wav')).sort().slice(0, 3).map((f) => join(hifi, f));
    otherSide = join(dir, 'other-side.wav');
    execFileSync('sox', [...files, '-r', '16000', '-c', '1', otherSide]);
    served = await startServeUi({ env: pulse.env });
    ({ browser, page } = await openLoggedInPage(served, pageErrors));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    pulse?.stop();
  });

  it('records both sides labelled, shows it on every tab, and leaves the meeting in Jobs and in search', { timeout: 240_000 }, async () => {
    await page.keyboard.press('Control+3');
    const panel = page.locator('#panel-live');
    await panel.getByRole('button', { name: 'Meeting' }).click();
    await expect.poll(() => panel.locator('#capture-model').inputValue()).toBe('pocketsphinx-en-us');
    await expect.poll(() => panel.getByText('You: Test-microphone').count()).toBe(1);
    await panel.getByTestId('capture-start').click();
    await panel.getByTestId('capture-stop').waitFor({ timeout: 30_000 });
    // Nothing records unseen: the banner is on every tab.
    await page.getByTestId('capture-banner').waitFor({ timeout: 10_000 });
    await Promise.all([pulse.play(JFK_WAV, 'mic'), pulse.play(otherSide, 'speakers')]);
    await expect.poll(async () => (await lines('microphone')).join(' '), { timeout: 90_000 }).toContain('country');
    await expect.poll(async () => (await lines('system')).length, { timeout: 60_000 }).toBeGreaterThan(0);
    expect((await lines('microphone')).every((l) => l.startsWith('You:'))).toBe(true);
    expect((await lines('system')).every((l) => l.startsWith('Other side:'))).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'meeting-capture.png'), fullPage: true });
    await page.keyboard.press('Control+4');
    expect(await page.getByTestId('capture-banner').isVisible()).toBe(true);
    await page.keyboard.press('Control+3');
    await panel.getByTestId('capture-stop').click();
    await panel.getByTestId('capture-job').waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByTestId('capture-banner').count(), { timeout: 15_000 }).toBe(0);
    expect(await panel.getByRole('alert').allInnerTexts()).toEqual([]);

    // The meeting is an ordinary transcription: in Jobs, with both speakers, and found by search.
    const jobs = (await (await fetch(`${served.url}/v1/jobs?limit=5`, { headers: { authorization: `Bearer ${served.apiKey}` } })).json()) as { data: Job[] };
    const meeting = jobs.data.find((j) => j.name?.startsWith('Meeting '));
    expect(meeting?.status).toBe('succeeded');
    expect(new Set(meeting!.result!.segments!.map((s) => s.speaker))).toEqual(new Set(['You', 'Other side']));
    await panel.getByRole('button', { name: 'Open the transcript' }).click();
    await expect.poll(() => page.locator('#panel-jobs').innerText(), { timeout: 20_000 }).toContain('Other side');
    const search = (await (await fetch(`${served.url}/v1/search?q=country`, { headers: { authorization: `Bearer ${served.apiKey}` } })).json()) as { data: { job_id: string }[] };
    expect(search.data.map((h) => h.job_id)).toContain(meeting!.id);
    expect(pageErrors).toEqual([]);
  });
});
