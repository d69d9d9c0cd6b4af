/**
 * The transcript workbench end to end, as a new user tries it (issue 11's acceptance, as far as the UI goes), in
 * Debian's Chromium against a real `voxdesk serve --ui` with PocketSphinx: transcribe two recordings, fix a word in
 * one (Enter saves, Esc cancels, Ctrl+Z undoes), name its speaker and rename it, see the Jobs list start each
 * transcript, meet an edit made elsewhere (409) without losing the text being typed, search for the fixed word from
 * Ctrl+K and land on it with the audio seeked there, and download a DOCX that shows the fix and the name (unzipped
 * and read). axe-core checks the workbench with its editors open. Search lands on the matched word, and the words
 * PocketSphinx was unsure of are shaded with F9 going between them (issue 29.5, 29.6).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireCommand, requireFile, SHARED } from '../helpers/system.js';
import { describeViolations, seriousViolations } from './axe.js';
import { docxText } from './docx-text.js';
import { ROOT, startServeUi, type ServedUi } from './serve-ui.js';
import { openLoggedInPage, type Chromium } from './logged-in-page.js';
import { scaled } from '../helpers/time-scale.js';

const SHOTS = join(ROOT, 'test-artifacts', 'screenshots');
/** A word no recording contains, so the library search can only find it where the person typed it. */
const FIXED = 'marmalade';
let served: ServedUi;
let browser: Chromium;
let page: Page;
const pageErrors: string[] = [];

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${served.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${served.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

interface Transcript {
  revision: number;
  speakers: Record<string, string>;
  segments: { index: number; start: number; end: number; text: string; speaker: string | null; words: { word: string; start: number; end: number; confidence?: number }[] }[];
}

async function jobIdOf(name: string): Promise<string> {
  const jobs = await api<{ data: { id: string; name: string }[] }>('GET', '/v1/jobs?product=speech-to-text');
  return jobs.data.find((j) => j.name === name)!.id;
}

function segmentText(transcript: Locator, index: number): Promise<string> {
  return transcript.locator(`[data-segment="${index}"]`).innerText();
}

describe('transcript workbench in Chromium (browser mode)', () => {
  beforeAll(async () => {
    requireCommand('pocketsphinx_batch', 'pocketsphinx');
    requireFile('/usr/share/pocketsphinx/model/en-us/en-us', 'pocketsphinx-en-us');
    mkdirSync(SHOTS, { recursive: true });
    served = await startServeUi();
    ({ browser, page } = await openLoggedInPage(served, pageErrors));
  });

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  it('transcribes two recordings, fixes a word, names the speaker, finds the fix from Ctrl+K and exports it as DOCX', async () => {
    const panel = page.locator('#panel-transcribe');
    const picker = panel.locator('#asr-model');
    await expect.poll(() => picker.locator('option').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/PocketSphinx/i)]));
    await picker.selectOption((await picker.locator('option', { hasText: /PocketSphinx/i }).first().getAttribute('value'))!);
    await panel.locator('[data-testid="file-input"]').setInputFiles([join(SHARED, 'audio', 'jfk.wav'), join(SHARED, 'audio', 'hifitts-6097', 'roots_04_morris_0400.wav')]);
    const rows = panel.locator('.list li');
    await expect.poll(() => rows.count()).toBe(2);
    for (const i of [0, 1]) await expect.poll(() => rows.nth(i).locator('[data-status]').getAttribute('data-status'), { timeout: scaled(180_000) }).toBe('succeeded');

    // jfk.wav's transcript: find the segment saying "country" (PocketSphinx hears it; the rest varies).
    await rows.nth(0).getByRole('button').first().click();
    const transcript = panel.locator('.transcript');
    await expect.poll(() => transcript.innerText(), { timeout: scaled(20_000) }).toMatch(/country/i);
    const jfk = await jobIdOf('jfk.wav');
    const original = await api<Transcript>('GET', `/v1/speech-to-text/${jfk}/transcript`);
    const target = original.segments.find((s) => /country/i.test(s.text))!;
    const other = original.segments.find((s) => s.index !== target.index)!;

    // Esc cancels: nothing saved.
    await transcript.locator(`[data-segment="${other.index}"] .seg-text`).click();
    const otherEditor = transcript.locator(`[data-segment="${other.index}"] textarea`);
    await otherEditor.fill('nothing to keep');
    await otherEditor.press('Escape');
    await expect.poll(() => otherEditor.count()).toBe(0);
    expect(await segmentText(transcript, other.index)).toBe(other.text.trim());
    expect((await api<Transcript>('GET', `/v1/speech-to-text/${jfk}/transcript`)).revision).toBe(original.revision);
    // Esc in the editor did not reach the page's Esc (which cancels unfinished uploads): both rows are still done.
    expect(await rows.locator('[data-status="succeeded"]').count()).toBe(2);

    // Click the sentence, fix the word, Enter saves.
    await transcript.locator(`[data-segment="${target.index}"] .seg-text`).click();
    const editor = transcript.locator(`[data-segment="${target.index}"] textarea`);
    await expect.poll(() => editor.inputValue()).toBe(target.text.trim());
    const fixedText = target.text.trim().replace(/country/i, FIXED);
    await editor.fill(fixedText);
    await editor.press('Enter');
    await expect.poll(() => editor.count()).toBe(0);
    await expect.poll(() => segmentText(transcript, target.index)).toBe(fixedText);
    const afterFix = await api<Transcript>('GET', `/v1/speech-to-text/${jfk}/transcript`);
    expect(afterFix.revision).toBe(original.revision + 1);
    expect(afterFix.segments.find((s) => s.index === target.index)!.text).toBe(fixedText);

    // Another save, then Ctrl+Z takes it back (a new revision with the text from before).
    await transcript.locator(`[data-segment="${other.index}"] .seg-text`).click();
    await otherEditor.fill('a slip of the keyboard');
    await otherEditor.press('Enter');
    await expect.poll(() => segmentText(transcript, other.index)).toBe('a slip of the keyboard');
    await transcript.locator(`[data-segment="${other.index}"] .seg-text`).press('Control+z');
    await expect.poll(() => segmentText(transcript, other.index)).toBe(other.text.trim());
    const afterUndo = await api<Transcript>('GET', `/v1/speech-to-text/${jfk}/transcript`);
    expect(afterUndo.revision).toBe(original.revision + 3);
    expect(afterUndo.segments.find((s) => s.index === target.index)!.text).toBe(fixedText);

    // PocketSphinx does not tell speakers apart: name the one speaker, then rename it from its chip.
    await transcript.getByRole('button', { name: 'Name the speaker' }).click();
    await transcript.getByLabel('Speaker name').fill('Alice');
    await transcript.getByRole('button', { name: 'Name the speaker' }).click();
    const chip = transcript.getByRole('group', { name: 'Speakers' }).getByRole('button', { name: 'Alice' });
    await chip.waitFor();
    // Focus stays in the transcript (on the new chip), so Ctrl+Z right away takes the naming back; named again after.
    await expect.poll(() => chip.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Control+z');
    await expect.poll(() => transcript.getByRole('group', { name: 'Speakers' }).count()).toBe(0);
    await transcript.getByRole('button', { name: 'Name the speaker' }).click();
    await transcript.getByLabel('Speaker name').fill('Alice');
    await transcript.getByRole('button', { name: 'Name the speaker' }).click();
    await chip.waitFor();
    await chip.click();
    await transcript.getByLabel('Speaker name').fill('John F. Kennedy');
    await transcript.getByRole('button', { name: 'Rename everywhere' }).click();
    await expect.poll(() => transcript.locator('.turn .speaker').allInnerTexts()).toEqual(['John F. Kennedy']);
    const named = await api<Transcript>('GET', `/v1/speech-to-text/${jfk}/transcript`);
    expect(Object.values(named.speakers)).toEqual(['John F. Kennedy']);
    expect(new Set(named.segments.map((s) => s.speaker))).toEqual(new Set([Object.keys(named.speakers)[0]]));

    // Someone else saves meanwhile (another window, a script): the next save meets a 409, the page reloads the
    // newer revision, keeps what the person typed, and saves it on the next Enter.
    await api('PATCH', `/v1/speech-to-text/${jfk}/transcript`, { base_revision: named.revision, segments: [{ index: other.index, text: 'edited in another window' }] });
    await transcript.locator(`[data-segment="${target.index}"] .seg-text`).click();
    await editor.fill(`${fixedText} indeed`);
    await editor.press('Enter');
    await expect.poll(() => transcript.getByRole('alert').innerText()).toMatch(/edited elsewhere/i);
    expect(await editor.inputValue()).toBe(`${fixedText} indeed`);
    await expect.poll(() => segmentText(transcript, other.index)).toBe('edited in another window');
    await page.screenshot({ path: join(SHOTS, 'transcript-conflict.png'), fullPage: true });
    await editor.press('Enter');
    await expect.poll(() => editor.count()).toBe(0);
    await expect.poll(() => transcript.getByRole('alert').count()).toBe(0);
    const latest = await api<Transcript>('GET', `/v1/speech-to-text/${jfk}/transcript`);
    expect(latest.segments.find((s) => s.index === target.index)!.text).toBe(`${fixedText} indeed`);
    expect(latest.segments.find((s) => s.index === other.index)!.text).toBe('edited in another window');

    // axe on the workbench with its editors open.
    await transcript.locator(`[data-segment="${other.index}"] .seg-text`).click();
    await transcript.getByRole('group', { name: 'Speakers' }).getByRole('button').first().click();
    const violations = await seriousViolations(page);
    expect(describeViolations('transcript workbench', violations)).toBe('');
    await page.screenshot({ path: join(SHOTS, 'transcript-workbench.png'), fullPage: true });
    await transcript.locator(`[data-segment="${other.index}"] textarea`).press('Escape');

    // The Jobs list starts each transcript.
    await page.keyboard.press('Control+4');
    const jobsPanel = page.locator('#panel-jobs');
    await expect.poll(() => jobsPanel.locator('[data-testid="transcript-start"]').count()).toBe(2);
    const jfkRow = jobsPanel.locator('tbody tr', { hasText: 'jfk.wav' });
    const firstWords = latest.segments.map((s) => s.text).join(' ').split(/\s+/).slice(0, 3).join(' ');
    expect(await jfkRow.locator('[data-testid="transcript-start"]').innerText()).toContain(firstWords);
    // A script fixes the other recording's first words while the page is open: its row follows the next poll.
    const morris = await jobIdOf('roots_04_morris_0400.wav');
    const morrisText = await api<Transcript>('GET', `/v1/speech-to-text/${morris}/transcript`);
    await api<Transcript>('PATCH', `/v1/speech-to-text/${morris}/transcript`, {
      base_revision: morrisText.revision,
      segments: [{ index: morrisText.segments.find((s) => s.text !== '')!.index, text: 'Edited by a script' }],
    });
    const morrisRow = jobsPanel.locator('tbody tr', { hasText: 'roots_04_morris_0400.wav' });
    await expect.poll(() => morrisRow.locator('[data-testid="transcript-start"]').innerText(), { timeout: scaled(20_000) }).toMatch(/^Edited by a script/);

    // Ctrl+K from anywhere: search for the fixed word, land on it with the audio there.
    await page.keyboard.press('Control+1');
    await page.keyboard.press('Control+k');
    const box = page.getByRole('combobox', { name: 'Search every transcript' });
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await box.fill(FIXED);
    const options = page.getByRole('listbox', { name: 'Results' }).getByRole('option');
    await expect.poll(() => options.count(), { timeout: scaled(10_000) }).toBe(1);
    expect(await options.first().innerText()).toMatch(/jfk\.wav/);
    expect(await options.first().locator('mark').innerText()).toMatch(new RegExp(FIXED, 'i'));
    expect(await box.getAttribute('aria-activedescendant')).toBe(await options.first().getAttribute('id'));
    await page.screenshot({ path: join(SHOTS, 'library-search.png') });
    await box.press('Enter');
    await expect.poll(() => page.getAttribute('#tab-jobs', 'aria-selected')).toBe('true');
    const opened = jobsPanel.locator('[aria-label="Opened job"]');
    await expect.poll(() => opened.locator('h2').innerText()).toBe('jfk.wav');
    await expect.poll(() => opened.locator(`[data-segment="${target.index}"]`).getAttribute('class')).toMatch(/focused/);
    // It lands on the matched word, not its sentence: that word highlighted, the audio at its start (issue 29.5).
    const fixedWord = latest.segments.find((s) => s.index === target.index)!.words.find((w) => w.word.includes(FIXED))!;
    await expect.poll(() => opened.locator(`[data-segment="${target.index}"] .word.found`).allInnerTexts()).toEqual([fixedWord.word]);
    const audio = opened.locator('audio');
    const seekedTo = fixedWord.start;
    await expect
      .poll(() => audio.evaluate((a: HTMLAudioElement) => (a.readyState >= 1 ? a.currentTime : -1)), { timeout: scaled(10_000) })
      .toBeCloseTo(seekedTo, 1);
    expect(await audio.evaluate((a: HTMLAudioElement) => a.paused)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'search-landed.png'), fullPage: true });

    // The DOCX shows the fix and the name.
    const [download] = await Promise.all([page.waitForEvent('download'), opened.getByRole('button', { name: 'Export DOCX' }).click()]);
    expect(download.suggestedFilename()).toBe('jfk.docx');
    const text = await docxText(readFileSync((await download.path())!));
    expect(text).toContain(`${fixedText} indeed`);
    expect(text).toContain('John F. Kennedy');

    // Subtitles with line options: at most one line of at most 20 characters per cue. The speaker label counts in
    // the line: "[John F. Kennedy]" leaves no room for a word in 20 characters, so these cues go unlabelled.
    await opened.getByText('Subtitle lines').click();
    await opened.getByLabel('Characters per line').fill('20');
    await opened.getByLabel('Lines per subtitle').selectOption('1');
    const [srtDownload] = await Promise.all([page.waitForEvent('download'), opened.getByRole('button', { name: 'Export SRT' }).click()]);
    const cues = readFileSync((await srtDownload.path())!, 'utf8').trim().split(/\r?\n\r?\n/);
    for (const cue of cues) {
      const lines = cue.split(/\r?\n/).slice(2);
      expect(lines).toHaveLength(1);
      expect(lines[0]!.length, cue).toBeLessThanOrEqual(20);
    }
    expect(pageErrors).toEqual([]);
  }, scaled(400_000));

  it('after a reload (the recording no longer in the window) Ctrl+K lands on the fix with the service’s recording, seeked and playable', async () => {
    const jfk = await jobIdOf('jfk.wav');
    const target = (await api<Transcript>('GET', `/v1/speech-to-text/${jfk}/transcript`)).segments.find((s) => s.text.includes(FIXED))!;
    await page.reload();
    await page.getByRole('tab', { name: /Transcribe/ }).waitFor();
    await page.keyboard.press('Control+k');
    const box = page.getByRole('combobox', { name: 'Search every transcript' });
    await box.fill(FIXED);
    const options = page.getByRole('listbox', { name: 'Results' }).getByRole('option');
    await expect.poll(() => options.count(), { timeout: scaled(10_000) }).toBe(1);
    await box.press('Enter');
    const opened = page.locator('#panel-jobs [aria-label="Opened job"]');
    await expect.poll(() => opened.locator('h2').innerText()).toBe('jfk.wav');
    const audio = opened.locator('audio');
    // Not a blob of this window any more: GET /v1/speech-to-text/{id}/audio, streamed with byte ranges.
    expect(await audio.getAttribute('src')).toMatch(new RegExp(`/v1/speech-to-text/${jfk}/audio\\?api_key=`));
    await expect
      .poll(() => audio.evaluate((a: HTMLAudioElement) => (a.readyState >= 1 ? a.currentTime : -1)), { timeout: scaled(10_000) })
      .toBeCloseTo(target.words.find((w) => w.word.includes(FIXED))!.start, 1);
    expect(await audio.evaluate((a: HTMLAudioElement) => a.duration)).toBeGreaterThan(10); // jfk.wav is 11 s
    // Play from the segment's time (a click, as a person would): the clock moves on from there.
    await opened.getByRole('button', { name: /^Play from / }).first().click();
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => !a.paused && a.currentTime > 0.3), { timeout: scaled(15_000) }).toBe(true);
    await audio.evaluate((a: HTMLAudioElement) => a.pause());
    // Seek far into the recording: the element asks for a byte range and carries on from there.
    await audio.evaluate((a: HTMLAudioElement) => {
      a.currentTime = 9;
    });
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => (a.seeking ? -1 : a.currentTime)), { timeout: scaled(10_000) }).toBeCloseTo(9, 1);
    expect(await opened.locator('[data-testid="audio-problem"]').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  }, scaled(120_000));

  it('shades the words PocketSphinx was unsure of, and F9 / Shift+F9 go to the next / previous one (light and dark, axe)', async () => {
    // jfk.wav, which PocketSphinx half mishears: its words' posteriors (the words the edits above wrote have none).
    const jfk = await jobIdOf('jfk.wav');
    const latest = await api<Transcript>('GET', `/v1/speech-to-text/${jfk}/transcript`);
    const unsure = latest.segments.flatMap((s) => s.words.map((w, i) => ({ segment: s.index, i, ...w }))).filter((w) => w.confidence !== undefined && w.confidence < 0.5);
    expect(unsure.length).toBeGreaterThan(0);
    expect(latest.segments.flatMap((s) => s.words).filter((w) => w.confidence === undefined).length).toBeLessThan(latest.segments.flatMap((s) => s.words).length);
    await page.keyboard.press('Control+4');
    const jobsPanel = page.locator('#panel-jobs');
    await jobsPanel.locator('tbody tr', { hasText: 'jfk.wav' }).getByRole('button', { name: 'Open' }).click();
    const opened = jobsPanel.locator('[aria-label="Opened job"]');
    await expect.poll(() => opened.locator('h2').innerText()).toBe('jfk.wav');
    // Exactly the words below the threshold are shaded, each saying how sure the recognizer was.
    await expect.poll(() => opened.locator('.word.uncertain').count(), { timeout: scaled(20_000) }).toBe(unsure.length);
    expect(await opened.locator('.word.uncertain').first().getAttribute('title')).toMatch(/^The recognizer was \d+ % sure of this word$/);
    await expect.poll(() => opened.locator('[data-testid="next-uncertain"]').innerText()).toMatch(new RegExp(`^${unsure.length} uncertain words?: next`));
    // F9: the first uncertain word, highlighted, the audio there; F9 again: the second; Shift+F9: back to the first.
    const found = (): Promise<string[]> => opened.locator('.word.found').allInnerTexts();
    const audio = opened.locator('audio');
    // The keys work anywhere in the transcript: from its first sentence (focused, not opened for editing).
    await opened.locator('.seg-text').first().focus();
    await page.keyboard.press('F9');
    await expect.poll(found).toEqual([unsure[0]!.word]);
    await expect.poll(() => opened.locator(`[data-segment="${unsure[0]!.segment}"] .word`).nth(unsure[0]!.i).getAttribute('class')).toMatch(/found/);
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => (a.readyState >= 1 ? a.currentTime : -1)), { timeout: scaled(10_000) }).toBeCloseTo(unsure[0]!.start, 1);
    if (unsure.length > 1) {
      await page.keyboard.press('F9');
      await expect.poll(() => opened.locator(`[data-segment="${unsure[1]!.segment}"] .word`).nth(unsure[1]!.i).getAttribute('class')).toMatch(/found/);
    }
    await page.keyboard.press('Shift+F9');
    await expect.poll(() => opened.locator(`[data-segment="${unsure[0]!.segment}"] .word`).nth(unsure[0]!.i).getAttribute('class')).toMatch(/found/);
    // Shift+F9 from the first goes round to the last.
    await page.keyboard.press('Shift+F9');
    const last = unsure.at(-1)!;
    await expect.poll(() => opened.locator(`[data-segment="${last.segment}"] .word`).nth(last.i).getAttribute('class')).toMatch(/found/);
    // Readable in both colour schemes: axe (its contrast rule included) on the shaded transcript.
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      expect(describeViolations(`uncertain words (${colorScheme})`, await seriousViolations(page))).toBe('');
      await page.screenshot({ path: join(SHOTS, `uncertain-words-${colorScheme}.png`), fullPage: true });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect(pageErrors).toEqual([]);
  }, scaled(120_000));
});
