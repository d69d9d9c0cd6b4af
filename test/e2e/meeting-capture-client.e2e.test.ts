/**
 * Meeting capture where the service cannot record this computer (Windows and macOS, or no sound server): the page
 * records both sides itself and sends them over the capture's socket (src-renderer/src/capture/client-sides.ts) —
 * the microphone through getUserMedia and the computer's sound through a screen share's audio. In Debian's Chromium
 * against a real `voxdesk serve --ui` whose sound server is unreachable: the microphone is Chromium's fake device
 * saying jfk.wav, and "the meeting" is another tab playing another speaker, picked by its title the way a person
 * picks it in the share dialog (--auto-select-tab-capture-source-by-title) with its sound. Both sides appear
 * labelled, and the stopped meeting is a transcription with both speakers. (The desktop app's way to the same
 * stream, the screen's loopback sound granted without a picker, is app/system-audio-capture.ts, tested under Node.)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../src-main/common/api-types.js';
import { JFK_WAV } from '../helpers/dictation-fixtures.js';
import { requireCommand, requireFile, SHARED } from '../helpers/system.js';
import { startXvfb } from '../helpers/xvfb.js';
import { openLoggedInPage, type Chromium } from './logged-in-page.js';
import { ROOT, startServeUi, type ServedUi } from './serve-ui.js';
import { scaled } from '../helpers/time-scale.js';

const SHOTS = join(ROOT, 'test-artifacts', 'screenshots');
const MEETING_TITLE = 'Team meeting';
let served: ServedUi;
let browser: Chromium;
let page: Page;
let meetingTab: Page;
let otherSide: string;
const pageErrors: string[] = [];

const lines = (side: 'microphone' | 'system'): Promise<string[]> => page.locator(`[data-testid="capture-transcript"] p[data-side="${side}"]:not(.partial)`).allInnerTexts();

describe('meeting capture in Chromium where the page records both sides', () => {
  beforeAll(async () => {
    requireFile('/usr/share/pocketsphinx/model/en-us/en-us/mdef', 'pocketsphinx-en-us');
    requireCommand('sox', 'sox');
    const dir = mkdtempSync(join(tmpdir(), 'voxdesk-meeting-client-e2e-'));
    const hifi = join(SHARED, 'audio/hifitts-6097');
    const files = readdirSync(hifi).filter((f) => f.endsWith('.wav')).sort().slice(0, 3).map((f) => join(hifi, f));
    otherSide = join(dir, 'other-side.wav');
    execFileSync('sox', [...files, '-r', '16000', '-c', '1', otherSide]);
    // No sound server the service can reach: it offers capture with both sides sent by the client.
    served = await startServeUi({ env: { PULSE_SERVER: `unix:${join(dir, 'no-sound-server')}` } });
    // With a window (on a private X server): a headless Chromium's tabs play no sound a screen share could carry.
    const { display } = await startXvfb();
    ({ browser, page } = await openLoggedInPage(served, pageErrors, {
      display,
      // A fake microphone without the fake permission prompt (which would also answer the share dialog, and fail it).
      chromiumArgs: ['--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${JFK_WAV}`, `--auto-select-tab-capture-source-by-title=${MEETING_TITLE}`],
    }));
    await browser.context.grantPermissions(['microphone'], { origin: served.url });
    meetingTab = await browser.context.newPage();
    await meetingTab.setContent(`<title>${MEETING_TITLE}</title><audio id="call" loop></audio>`);
    const wav = readFileSync(otherSide).toString('base64');
    await meetingTab.evaluate(async (data) => {
      const audio = document.getElementById('call') as HTMLAudioElement;
      audio.src = `data:audio/wav;base64,${data}`;
      await audio.play();
    }, wav);
    await page.bringToFront();
  }, scaled(120_000));

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  it('records the microphone and the shared tab\'s sound, labelled, and leaves the meeting in Jobs', { timeout: scaled(240_000) }, async () => {
    await page.keyboard.press('Control+3');
    const panel = page.locator('#panel-live');
    await panel.getByRole('button', { name: 'Meeting' }).click();
    await expect.poll(() => panel.locator('#capture-model').inputValue()).toBe('pocketsphinx-en-us');
    await expect.poll(() => panel.getByTestId('capture-client').innerText()).toMatch(/the browser asks what to share/);
    expect(await panel.getByText('You: this computer’s microphone').count()).toBe(1);
    await panel.getByTestId('capture-start').click();
    await panel.getByTestId('capture-stop').waitFor({ timeout: scaled(30_000) });
    await page.getByTestId('capture-banner').waitFor({ timeout: scaled(10_000) });
    // jfk.wav through the fake device and the live recognizer ("… can do for you …").
    await expect.poll(async () => (await lines('microphone')).join(' '), { timeout: scaled(90_000) }).toMatch(/can do for you/);
    await expect.poll(async () => (await lines('system')).length, { timeout: scaled(90_000) }).toBeGreaterThan(0);
    expect((await lines('microphone')).every((l) => l.startsWith('You:'))).toBe(true);
    expect((await lines('system')).every((l) => l.startsWith('Other side:'))).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'meeting-capture-client.png'), fullPage: true });
    await panel.getByTestId('capture-stop').click();
    await panel.getByTestId('capture-job').waitFor({ timeout: scaled(60_000) });
    expect((await panel.getByRole('alert').allInnerTexts()).join(' | ')).toBe('');

    const jobs = (await (await fetch(`${served.url}/v1/jobs?limit=5`, { headers: { authorization: `Bearer ${served.apiKey}` } })).json()) as { data: Job[] };
    const meeting = jobs.data.find((j) => j.name?.startsWith('Meeting '));
    expect(meeting?.status).toBe('succeeded');
    expect(new Set(meeting!.result!.segments!.map((s) => s.speaker))).toEqual(new Set(['You', 'Other side']));
    expect(pageErrors).toEqual([]);
  });
});
