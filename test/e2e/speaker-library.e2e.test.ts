/**
 * Issue 29.3 as a person tries it in Debian's Chromium against a real `voxdesk serve --ui` with the tiny recognizer,
 * Silero VAD, the pyannote segmentation and the tiny speaker embedding imported: transcribe the two-speaker clip with
 * "Tell speakers apart", name the first speaker "Anna" from its chip; the next recording of her voice (cut from her
 * turns) comes back with Anna named; "Not Anna" takes it off; Settings → Speakers lists her, renames her and deletes
 * her. (The tiny random-weight embedding matches every voice at the default threshold: this test is about the
 * screens; which voice matches is tested in test/integration/engines/asr/diarization-speakers.test.ts.)
 */
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/audio-fixtures.js';
import { oneVoiceRecording, TWO_SPEAKERS } from '../helpers/speaker-recordings.js';
import { SHARED } from '../helpers/system.js';
import { describeViolations, seriousViolations } from './axe.js';
import { openLoggedInPage, type Chromium } from './logged-in-page.js';
import { startServeUi, type ServedUi } from './serve-ui.js';
import { scaled } from '../helpers/time-scale.js';

let served: ServedUi;
let browser: Chromium;
let page: Page;
const pageErrors: string[] = [];
const temp = makeTempDir('voxdesk-e2e-speakers-');

async function api<T>(method: string, path: string): Promise<T> {
  const response = await fetch(`${served.url}${path}`, { method, headers: { authorization: `Bearer ${served.apiKey}` } });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function importModel(body: Record<string, unknown>): Promise<void> {
  const headers = { authorization: `Bearer ${served.apiKey}`, 'content-type': 'application/json' };
  const r = await fetch(`${served.url}/v1/local/models/import`, { method: 'POST', headers, body: JSON.stringify(body) });
  expect(r.status, await r.text()).toBe(202);
  for (let state = ''; state !== 'installed'; await new Promise((resolve) => setTimeout(resolve, 100))) {
    state = ((await (await fetch(`${served.url}/v1/local/models/${String(body.id)}`, { headers })).json()) as { state: string }).state;
    if (state === 'failed') throw new Error(`importing ${String(body.id)} failed`);
  }
}

/** Transcribes `file` on the Transcribe tab with speakers told apart, and opens its transcript. */
async function transcribe(file: string, speakers: number | null): Promise<Locator> {
  await page.getByRole('tab', { name: /Transcribe/ }).click();
  const panel = page.locator('#panel-transcribe');
  const picker = panel.locator('#asr-model');
  await expect.poll(() => picker.locator('option').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/tiny-ctc/i)]));
  await picker.selectOption((await picker.locator('option', { hasText: /tiny-ctc/i }).first().getAttribute('value'))!);
  const separate = panel.getByLabel('Tell speakers apart');
  if (!(await separate.isChecked())) await separate.check();
  await panel.getByLabel('Number of speakers').fill(speakers === null ? '' : String(speakers));
  await panel.locator('[data-testid="file-input"]').setInputFiles([file]);
  const row = panel.locator('.list li', { hasText: file.split('/').pop()! }).first();
  await expect.poll(() => row.locator('[data-status]').getAttribute('data-status'), { timeout: scaled(120_000) }).toBe('succeeded');
  await row.getByRole('button').first().click();
  const transcript = panel.locator('.transcript');
  await transcript.getByRole('group', { name: 'Speakers' }).waitFor();
  return transcript;
}

describe('the speaker library in Chromium (browser mode)', () => {
  beforeAll(async () => {
    served = await startServeUi();
    await importModel({ path: join(SHARED, 'models/tiny/tiny-nemo-ctc'), id: 'tiny-ctc', languages: ['en'] });
    await importModel({ path: join(SHARED, 'models/silero_vad_v5.onnx'), id: 'silero-vad-test' });
    await importModel({ path: join(SHARED, 'models/pyannote-segmentation-3-0.int8.onnx'), id: 'pyannote-test', family: 'pyannote-segmentation' });
    await importModel({ path: join(SHARED, 'models/tiny/tiny-speaker-embedding.onnx'), id: 'embedding-test', family: 'speaker-embedding' });
    ({ browser, page } = await openLoggedInPage(served, pageErrors));
  }, scaled(120_000));

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    temp.cleanup();
  });

  it('names a speaker once, sees the name in the next recording, corrects it, and manages the library in Settings', async () => {
    let transcript = await transcribe(TWO_SPEAKERS, 2);
    const chips = transcript.getByRole('group', { name: 'Speakers' });
    await expect.poll(() => chips.getByRole('button').allInnerTexts()).toEqual(['Speaker 1', 'Speaker 2']);
    await chips.getByRole('button', { name: 'Speaker 1' }).click();
    await transcript.getByLabel('Speaker name').fill('Anna');
    await transcript.getByRole('button', { name: 'Rename everywhere' }).click();
    // One speaker named, the other not.
    await expect.poll(() => chips.getByRole('button').allInnerTexts()).toEqual(['Anna', 'Speaker 2']);
    await expect.poll(async () => (await api<{ data: { name: string }[] }>('GET', '/v1/speakers')).data.map((p) => p.name)).toEqual(['Anna']);

    // The next recording of her voice is named by itself.
    transcript = await transcribe(oneVoiceRecording(temp.dir, 'speaker90'), null);
    const next = transcript.getByRole('group', { name: 'Speakers' });
    await expect.poll(() => next.getByRole('button').allInnerTexts()).toEqual(['Anna']);
    // "Not Anna": the name comes off.
    await next.getByRole('button', { name: 'Anna' }).click();
    const violations = await seriousViolations(page);
    expect(violations, describeViolations('the transcript with a named speaker\'s panel open', violations)).toEqual([]);
    await transcript.getByRole('button', { name: 'Not Anna' }).click();
    await expect.poll(() => next.getByRole('button').allInnerTexts()).toEqual([expect.stringMatching(/^Speaker \d$/)]);

    // Settings → Speakers: Anna with one recording and one correction; renamed, then deleted.
    await page.getByRole('tab', { name: /Settings/ }).click();
    const section = page.locator('[data-testid="speaker-settings"]');
    await section.scrollIntoViewIfNeeded();
    await expect.poll(() => section.locator('li').first().innerText()).toMatch(/Anna\s+1 recording · 1 correction/);
    await section.getByRole('button', { name: 'Rename' }).click();
    await section.getByLabel('Name of Anna').fill('Anna Berg');
    await section.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => section.locator('li strong').allInnerTexts()).toEqual(['Anna Berg']);
    expect((await api<{ data: { name: string }[] }>('GET', '/v1/speakers')).data.map((p) => p.name)).toEqual(['Anna Berg']);
    page.once('dialog', (dialog) => void dialog.accept());
    await section.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => section.innerText()).toMatch(/No speakers yet/);
    expect(pageErrors).toEqual([]);
  }, scaled(300_000));
});
