/**
 * Meeting capture as a new user would try it (issue 30's acceptance), in Debian's Chromium against a real
 * `voxdesk serve --ui` whose sound server is a private PulseAudio laid out as a laptop in a call
 * (test/helpers/capture-pulse.ts): on the Live tab's Meeting mode, Start; jfk.wav is said into the microphone while
 * another speaker's recording plays through the speakers; both appear in the transcript labelled "You" and "Other
 * side"; every tab shows that a meeting is being recorded; Stop; the meeting is in Jobs, opens as a transcript with
 * both speakers, and is found by search. Then the speaker models are imported as a person imports them (the real
 * pyannote segmentation, the tiny random-weight speaker embedding) and two voices take turns through the speakers
 * (test/helpers/two-voices.ts): the live transcript numbers the other side's speakers ("Other side 1:"), and the
 * meeting's transcript has two of them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../src-main/common/api-types.js';
import { startCapturePulse, type CapturePulse } from '../helpers/capture-pulse.js';
import { JFK_WAV } from '../helpers/dictation-fixtures.js';
import { requireCommand, requireFile, SHARED } from '../helpers/system.js';
import { TEST_DIARIZATION_MODELS, twoVoicesRecording } from '../helpers/two-voices.js';
import { openLoggedInPage, type Chromium } from './logged-in-page.js';
import { ROOT, startServeUi, type ServedUi } from './serve-ui.js';
import { scaled } from '../helpers/time-scale.js';

const SHOTS = join(ROOT, 'test-artifacts', 'screenshots');
let pulse: CapturePulse;
let served: ServedUi;
let browser: Chromium;
let page: Page;
let otherSide: string;
let twoVoices: string;
const pageErrors: string[] = [];

const lines = (side: 'microphone' | 'system'): Promise<string[]> => page.locator(`[data-testid="capture-transcript"] p[data-side="${side}"]:not(.partial)`).allInnerTexts();

/** The Live tab's Meeting mode, started on PocketSphinx. */
async function startMeeting(): Promise<Locator> {
  await page.keyboard.press('Control+3');
  const panel = page.locator('#panel-live');
  await panel.getByRole('button', { name: 'Meeting', exact: true }).click();
  await expect.poll(() => panel.locator('#capture-model').inputValue()).toBe('pocketsphinx-en-us');
  await expect.poll(() => panel.getByText('You: Test-microphone').count()).toBe(1);
  await panel.getByTestId('capture-start').click();
  await panel.getByTestId('capture-stop').waitFor({ timeout: scaled(30_000) });
  return panel;
}

/** The newest meeting in Jobs. */
async function lastMeeting(): Promise<Job | undefined> {
  const jobs = (await (await fetch(`${served.url}/v1/jobs?limit=5`, { headers: { authorization: `Bearer ${served.apiKey}` } })).json()) as { data: Job[] };
  return jobs.data.find((j) => j.name?.startsWith('Meeting '));
}

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
    twoVoices = twoVoicesRecording(dir);
    served = await startServeUi({ env: pulse.env });
    ({ browser, page } = await openLoggedInPage(served, pageErrors));
  }, scaled(120_000));

  // A test that fails mid-meeting must not leave it recording for the next one (it would find no Start button).
  afterEach(async () => {
    const headers = { authorization: `Bearer ${served.apiKey}` };
    const running = async (): Promise<{ id: string; status: string }[]> =>
      ((await (await fetch(`${served.url}/v1/captures`, { headers })).json()) as { data: { id: string; status: string }[] }).data.filter((c) => c.status === 'recording' || c.status === 'stopping');
    for (const c of await running()) if (c.status === 'recording') await fetch(`${served.url}/v1/captures/${c.id}/stop`, { method: 'POST', headers });
    await expect.poll(async () => (await running()).length, { timeout: scaled(120_000) }).toBe(0);
  }, scaled(150_000));

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    pulse?.stop();
  });

  it('records both sides labelled, shows it on every tab, and leaves the meeting in Jobs and in search', { timeout: scaled(240_000) }, async () => {
    const panel = await startMeeting();
    // Nothing records unseen: the banner is on every tab.
    await page.getByTestId('capture-banner').waitFor({ timeout: scaled(10_000) });
    await Promise.all([pulse.play(JFK_WAV, 'mic'), pulse.play(otherSide, 'speakers')]);
    await expect.poll(async () => (await lines('microphone')).join(' '), { timeout: scaled(90_000) }).toContain('country');
    await expect.poll(async () => (await lines('system')).length, { timeout: scaled(60_000) }).toBeGreaterThan(0);
    expect((await lines('microphone')).every((l) => l.startsWith('You:'))).toBe(true);
    expect((await lines('system')).every((l) => l.startsWith('Other side:'))).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'meeting-capture.png'), fullPage: true });
    await page.keyboard.press('Control+4');
    expect(await page.getByTestId('capture-banner').isVisible()).toBe(true);
    await page.keyboard.press('Control+3');
    await panel.getByTestId('capture-stop').click();
    await panel.getByTestId('capture-job').waitFor({ timeout: scaled(60_000) });
    await expect.poll(() => page.getByTestId('capture-banner').count(), { timeout: scaled(15_000) }).toBe(0);
    expect(await panel.getByRole('alert').allInnerTexts()).toEqual([]);

    // The meeting is an ordinary transcription: in Jobs, with both speakers, and found by search.
    const meeting = await lastMeeting();
    expect(meeting?.status).toBe('succeeded');
    expect(new Set(meeting!.result!.segments!.map((s) => s.speaker))).toEqual(new Set(['You', 'Other side']));
    await panel.getByRole('button', { name: 'Open the transcript' }).click();
    await expect.poll(() => page.locator('#panel-jobs').innerText(), { timeout: scaled(20_000) }).toContain('Other side');
    const search = (await (await fetch(`${served.url}/v1/search?q=country`, { headers: { authorization: `Bearer ${served.apiKey}` } })).json()) as { data: { job_id: string }[] };
    expect(search.data.map((h) => h.job_id)).toContain(meeting!.id);
    expect(pageErrors).toEqual([]);
  });

  it('with the speaker models, numbers the other side\'s speakers live, and the meeting has two of them', { timeout: scaled(480_000) }, async () => {
    const headers = { authorization: `Bearer ${served.apiKey}`, 'content-type': 'application/json' };
    for (const [family, path] of [['pyannote-segmentation', TEST_DIARIZATION_MODELS.segmentation], ['speaker-embedding', TEST_DIARIZATION_MODELS.embedding]] as const) {
      const id = `support-${family}`;
      const r = await fetch(`${served.url}/v1/local/models/import`, { method: 'POST', headers, body: JSON.stringify({ path, id, family }) });
      expect(r.status, await r.text()).toBe(202);
      for (let state = ''; state !== 'installed'; await new Promise((resolve) => setTimeout(resolve, 100))) {
        state = ((await (await fetch(`${served.url}/v1/local/models/${id}`, { headers })).json()) as { state: string }).state;
        if (state === 'failed') throw new Error(`importing ${id} failed`);
      }
    }
    const panel = await startMeeting();
    await Promise.all([pulse.play(JFK_WAV, 'mic'), pulse.play(twoVoices, 'speakers')]);
    // Generous: one recognizer process decodes both sides on a shared 2-core machine.
    await expect.poll(async () => (await lines('system')).length, { timeout: scaled(240_000) }).toBeGreaterThanOrEqual(3);
    const live = await lines('system');
    expect(live.every((l) => /^Other side( \d+)?:/.test(l)), JSON.stringify(live)).toBe(true);
    expect(live.some((l) => /^Other side \d+:/.test(l)), JSON.stringify(live)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'meeting-capture-speakers.png'), fullPage: true });

    await panel.getByTestId('capture-stop').click();
    await panel.getByTestId('capture-job').waitFor({ timeout: scaled(120_000) });
    const meeting = await lastMeeting();
    expect(meeting?.status).toBe('succeeded');
    const others = new Set(meeting!.result!.segments!.map((s) => s.speaker).filter((s) => s !== 'You'));
    expect(others.size, JSON.stringify([...others])).toBeGreaterThanOrEqual(2);
    await panel.getByRole('button', { name: 'Open the transcript' }).click();
    await expect.poll(() => page.locator('#panel-jobs').innerText(), { timeout: scaled(20_000) }).toContain('Other side 2');
    expect(pageErrors).toEqual([]);
  });
});
