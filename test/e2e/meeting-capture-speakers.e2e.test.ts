/**
 * A meeting where two people speak on the other side, in Debian's Chromium against a real `voxdesk serve --ui` with a
 * private PulseAudio laid out as a laptop in a call (test/helpers/capture-pulse.ts), the speaker models imported as a
 * person imports them (the real pyannote segmentation, the tiny random-weight speaker embedding): jfk.wav is said into
 * the microphone while a Hi-Fi TTS reader and another voice take turns through the speakers
 * (test/helpers/two-voices.ts). The live transcript shows the other side's lines with numbered speakers ("Other
 * side 1:"); after Stop the meeting's transcript in Jobs has "You" and two speakers of the other side.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../src-main/common/api-types.js';
import { startCapturePulse, type CapturePulse } from '../helpers/capture-pulse.js';
import { JFK_WAV } from '../helpers/dictation-fixtures.js';
import { requireFile } from '../helpers/system.js';
import { TEST_DIARIZATION_MODELS, twoVoicesRecording } from '../helpers/two-voices.js';
import { openLoggedInPage, type Chromium } from './logged-in-page.js';
import { ROOT, startServeUi, type ServedUi } from './serve-ui.js';

let pulse: CapturePulse;
let served: ServedUi;
let browser: Chromium;
let page: Page;
let twoVoices: string;
const pageErrors: string[] = [];

const lines = (side: 'microphone' | 'system'): Promise<string[]> => page.locator(`[data-testid="capture-transcript"] p[data-side="${side}"]:not(.partial)`).allInnerTexts();

describe('meeting capture with two voices on the other side, in Chromium', () => {
  beforeAll(async () => {
    requireFile('/usr/share/pocketsphinx/model/en-us/en-us/mdef', 'pocketsphinx-en-us');
    requireFile(TEST_DIARIZATION_MODELS.segmentation, '../shared/models');
    requireFile(TEST_DIARIZATION_MODELS.embedding, '../shared/models/tiny');
    pulse = startCapturePulse();
    twoVoices = twoVoicesRecording(mkdtempSync(join(tmpdir(), 'voxdesk-meeting-voices-e2e-')));
    served = await startServeUi({ env: pulse.env });
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
    ({ browser, page } = await openLoggedInPage(served, pageErrors));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    pulse?.stop();
  });

  it('shows the other side\'s lines with numbered speakers, and the meeting has two speakers of the other side', { timeout: 480_000 }, async () => {
    await page.keyboard.press('Control+3');
    const panel = page.locator('#panel-live');
    await panel.getByRole('button', { name: 'Meeting' }).click();
    await expect.poll(() => panel.locator('#capture-model').inputValue()).toBe('pocketsphinx-en-us');
    await panel.getByTestId('capture-start').click();
    await panel.getByTestId('capture-stop').waitFor({ timeout: 30_000 });
    await Promise.all([pulse.play(JFK_WAV, 'mic'), pulse.play(twoVoices, 'speakers')]);
    // Generous: one recognizer process decodes both sides on a shared 2-core machine.
    await expect.poll(async () => (await lines('system')).length, { timeout: 240_000 }).toBeGreaterThanOrEqual(3);
    const live = await lines('system');
    expect(live.every((l) => /^Other side( \d+)?:/.test(l)), JSON.stringify(live)).toBe(true);
    expect(live.some((l) => /^Other side \d+:/.test(l)), JSON.stringify(live)).toBe(true);
    expect((await lines('microphone')).every((l) => l.startsWith('You:'))).toBe(true);
    await page.screenshot({ path: join(ROOT, 'test-artifacts', 'screenshots', 'meeting-capture-speakers.png'), fullPage: true });

    await panel.getByTestId('capture-stop').click();
    await panel.getByTestId('capture-job').waitFor({ timeout: 120_000 });
    const jobs = (await (await fetch(`${served.url}/v1/jobs?limit=5`, { headers: { authorization: `Bearer ${served.apiKey}` } })).json()) as { data: Job[] };
    const meeting = jobs.data.find((j) => j.name?.startsWith('Meeting '));
    expect(meeting?.status).toBe('succeeded');
    const others = new Set(meeting!.result!.segments!.map((s) => s.speaker).filter((s) => s !== 'You'));
    expect(others.size, JSON.stringify([...others])).toBeGreaterThanOrEqual(2);
    await panel.getByRole('button', { name: 'Open the transcript' }).click();
    await expect.poll(() => page.locator('#panel-jobs').innerText(), { timeout: 20_000 }).toContain('Other side 2');
    expect(pageErrors).toEqual([]);
  });
});
