/**
 * Issue 13's acceptance, as a new user would try it: nothing but the official `openai` SDK pointed at a real
 * `voxdesk serve --ui` (a key from `voxdesk keys create`) transcribes jfk.wav as verbose_json with word timestamps,
 * translates (English, and German with no translating model installed), speaks "Hello" as mp3 with voice nova and as streamed pcm, and lists the models — then every one of
 * those calls is found in the Jobs tab in Chromium, and Settings shows where to point such tools.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI, { toFile } from 'openai';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireCommand, SHARED } from '../helpers/system.js';
import { launchChromium } from './chromium.js';
import { ROOT, startServeUi, type ServedUi } from './serve-ui.js';
import { scaled } from '../helpers/time-scale.js';

let served: ServedUi;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let client: OpenAI;
const pageErrors: string[] = [];

beforeAll(async () => {
  requireCommand('pocketsphinx_continuous', 'pocketsphinx');
  served = await startServeUi();
  const key = execFileSync(process.execPath, ['bin/voxdesk.js', 'keys', 'create', '--data-dir', served.dataDir], { cwd: ROOT }).toString().trim();
  client = new OpenAI({ baseURL: `${served.url}/v1`, apiKey: key, maxRetries: 0, timeout: scaled(180_000) });
  browser = await launchChromium();
  page = await browser.context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

describe('the official SDK against voxdesk serve, then the Jobs tab', () => {
  it('transcribes, translates, speaks, lists models — and each call is a job in the Jobs tab', async () => {
    const jfk = readFileSync(join(SHARED, 'audio/jfk.wav'));
    const verbose = await client.audio.transcriptions.create({
      file: await toFile(jfk, 'jfk.wav'),
      model: 'whisper-1',
      response_format: 'verbose_json',
      timestamp_granularities: ['word'],
    });
    expect(verbose.duration).toBe(11);
    expect(verbose.words!.length).toBeGreaterThan(5);

    const translation = await client.audio.translations.create({ file: await toFile(jfk, 'jfk-translated.wav'), model: 'whisper-1' });
    expect(translation.text).toMatch(/\w/);
    // Not English: with no translating model installed, whisper-1 on /translations is the English-only recogniser,
    // which answers in English (never an error page, never another language).
    const german = await client.audio.translations.create({
      file: await toFile(readFileSync(join(SHARED, 'audio/multilingual/test_de.wav')), 'german.wav'),
      model: 'whisper-1',
      response_format: 'verbose_json',
    });
    expect(german).toMatchObject({ task: 'translate', language: 'english' });
    expect(german.text).toMatch(/^[\x20-\x7e]*$/);

    const mp3 = await client.audio.speech.create({ model: 'tts-1', voice: 'nova', input: 'Hello' });
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    expect((await mp3.arrayBuffer()).byteLength).toBeGreaterThan(1000);

    const pcm = await client.audio.speech.create({ model: 'tts-1', voice: 'nova', input: 'Hello, streamed.', response_format: 'pcm' });
    let bytes = 0;
    for await (const chunk of pcm.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
    expect(bytes).toBeGreaterThan(24_000);

    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(expect.arrayContaining(['espeak-ng', 'pocketsphinx-en-us']));

    await page.goto(served.loginUrl);
    await page.getByRole('tab', { name: /Jobs/ }).click();
    const panel = page.locator('#panel-jobs');
    await expect.poll(() => panel.locator('tbody tr').count(), { timeout: scaled(30_000) }).toBe(5);
    // Each call by its name and kind (the name cell also shows a transcript's first words).
    const rows = await panel
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [tr.querySelector('td.name .title')?.textContent?.trim(), tr.children[1]?.textContent?.trim()]));
    expect(Object.fromEntries(rows)).toEqual({
      'jfk.wav': 'Transcript',
      'jfk-translated.wav': 'Transcript',
      'german.wav': 'Transcript',
      Hello: 'Speech',
      'Hello, streamed.': 'Speech',
    });
    await page.screenshot({ path: join(ROOT, 'test-artifacts', 'screenshots', 'jobs-openai.png'), fullPage: true });
  }, scaled(300_000));

  it('Settings shows the address to give such tools and changes which voice nova speaks with', async () => {
    await page.getByRole('tab', { name: /Settings/ }).click();
    const section = page.getByTestId('openai-settings');
    await expect.poll(() => section.getByTestId('openai-base-url').innerText()).toBe(`${served.url}/v1`);
    await expect.poll(() => section.getByLabel('Speech').locator('option').first().innerText()).toMatch(/^Automatic — eSpeak NG/);
    await section.getByText(/^Voices of eSpeak NG/).click();
    const nova = section.locator('#openai-voice-nova');
    await expect.poll(() => nova.locator('option').first().innerText()).toBe('Default — English (America), f2');
    await nova.selectOption('de');
    await expect.poll(async () => ((await (await fetch(`${served.url}/v1/settings/openai`, { headers: { authorization: `Bearer ${client.apiKey}` } })).json()) as { voices: unknown }).voices).toEqual({
      'espeak-ng': { nova: 'de' },
    });
    await page.screenshot({ path: join(ROOT, 'test-artifacts', 'screenshots', 'settings-openai.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
