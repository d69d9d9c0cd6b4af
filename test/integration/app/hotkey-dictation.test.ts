/**
 * Dictate anywhere under a real X server (Xvfb) with a real X client's text field (a Tk Entry), the real keyboard
 * hook (uiohook-napi) and a private PulseAudio whose microphone plays jfk.wav: xdotool presses the shortcut, holds it
 * while the sentence is said, releases it; the words the service recognised appear in the text field, and the
 * clipboard holds what the person had copied before. Without a display the error says why and the text is in the job.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Job } from '../../../src-main/common/api-types.js';
import { pocketsphinxModelSource } from '../../../src-main/engines/asr/pocketsphinx-models.js';
import { PulseSource } from '../../../src-main/engines/capture/pulse-source.js';
import { chooseInserter } from '../../../src-main/app/hotkey/choose-inserter.js';
import { DesktopHotkey } from '../../../src-main/app/hotkey/desktop-hotkey.js';
import { HotkeyDictation, type IndicatorState } from '../../../src-main/app/hotkey/hotkey-dictation.js';
import { DEFAULT_HOTKEY_SETTINGS } from '../../../src-main/app/hotkey/hotkey-settings.js';
import { startCapturePulse, type CapturePulse } from '../../helpers/capture-pulse.js';
import { JFK_TEXT, JFK_WAV, wordsOf } from '../../helpers/dictation-fixtures.js';
import { ROOT, startTestService, type TestService } from '../../helpers/service.js';
import { requireCommand } from '../../helpers/system.js';
import { startXvfb } from '../../helpers/xvfb.js';
import { silentLog } from '../../../src-main/common/log.js';
import { scaled } from '../../helpers/time-scale.js';
import { until } from '../../helpers/wait.js';

let pulse: CapturePulse;
let t: TestService;
let field: ChildProcess;
let display: string;
const dir = mkdtempSync(join(tmpdir(), 'voxdesk-hotkey-'));
const fieldFile = join(dir, 'field.txt');

/**
 * Most of jfk.wav's words were dictated: PocketSphinx's words vary with the audio it gets, and a busy machine's sound
 * server delivers it a little differently each time (the dictation browser test holds the same bar).
 */
function mostOfJfk(text: string): boolean {
  const said = new Set(wordsOf(text));
  const reference = wordsOf(JFK_TEXT);
  return reference.filter((w) => said.has(w)).length / reference.length >= 0.5;
}

async function waitFor(check: () => boolean, what: string, ms = scaled(30_000)): Promise<void> {
  await until(what, check, (holds) => holds, { timeoutMs: ms });
}

beforeAll(async () => {
  for (const [command, pkg] of [['xdotool', 'xdotool'], ['xclip', 'xclip'], ['pocketsphinx_continuous', 'pocketsphinx']]) requireCommand(command!, pkg);
  try {
    execFileSync('/usr/bin/python3', ['-c', 'import tkinter']);
  } catch {
    throw new Error('python3-tk is not installed (Debian package python3-tk): run bash .ci/system-packages.sh');
  }
  ({ display } = await startXvfb());
  pulse = startCapturePulse();
  field = spawn('/usr/bin/python3', [join(ROOT, 'test/helpers/x11-text-field.py'), fieldFile], { env: { ...process.env, DISPLAY: display }, stdio: 'ignore' });
  await waitFor(() => existsSync(`${fieldFile}.ready`), 'the text field');
  // The service waits up to 60 s for a dictation's last words after its end; a machine this busy may need longer.
  t = await startTestService({ builtInModels: true, extraModelSources: [pocketsphinxModelSource], live: { dictationEndTimeoutMs: 240_000 } });
}, scaled(120_000));
afterAll(async () => {
  field?.kill();
  await t?.stop();
  pulse?.stop();
});

it('holding the shortcut dictates into the focused X11 text field, and the clipboard is given back', async () => {
  const env = { ...process.env, DISPLAY: display };
  const x = (...args: string[]): string => execFileSync('xdotool', args, { env, encoding: 'utf8' });
  // The person had copied something before.
  // (xclip forks a server that keeps the selection, and with it any pipe it was given: its output is not read.)
  execFileSync('xclip', ['-selection', 'clipboard', '-i'], { env, input: 'what I had copied', stdio: ['pipe', 'ignore', 'ignore'] });
  const states: IndicatorState[] = [];
  // The desktop app's own wiring (what desktop-app.ts arms from the person's settings), on this display's hook.
  const hotkey = new DesktopHotkey({
    serviceUrl: t.url,
    apiKey: t.key,
    env,
    platform: 'linux',
    microphone: () => new PulseSource('microphone', 'mic', pulse.env),
    indicator: (state) => states.push(state),
    log: silentLog,
    // A busy machine may take a minute or more for the last words of a sentence.
    endTimeoutMs: 240_000,
  });
  const status = await hotkey.apply({ ...DEFAULT_HOTKEY_SETTINGS, shortcut: 'Ctrl+Alt+Space', mode: 'hold', insertion: 'paste' });
  expect(status).toEqual({ armed: true, problem: null, model: 'pocketsphinx-en-us' });
  try {
    x('keydown', 'ctrl+alt+space');
    await waitFor(() => states.some((s) => s.state === 'listening'), 'listening');
    await pulse.play(JFK_WAV, 'mic');
    // Let go once a second more was recorded after the sentence played — the sound server may deliver it late on a
    // busy machine — as a person lets go after the last word.
    const played = hotkey.listeningSeconds();
    await waitFor(() => hotkey.listeningSeconds() >= played + 1, 'the whole sentence to be recorded', scaled(60_000));
    x('keyup', 'ctrl+alt+space');
    await waitFor(() => hotkey.lastOutcome() !== null, 'the release');
    const done = await hotkey.lastOutcome()!;
    expect(done.error).toBeNull();
    expect(done.inserted).toEqual({ how: 'pasted' });
    // The hook watches keys without taking them (X11 lets no app swallow another's keys), so the field also saw the
    // shortcut: Tk's Entry types the Space of Ctrl+Alt+Space as a space. Apart from that, it holds exactly the words.
    const field = (): string => (existsSync(fieldFile) ? readFileSync(fieldFile, 'utf8').trim() : '');
    await waitFor(() => field() === done.text, `the field to hold "${done.text}"`, scaled(10_000)).catch((error: Error) => {
      throw new Error(`${error.message}; it holds "${field()}"`);
    });
    expect(mostOfJfk(done.text), done.text).toBe(true);
    expect(states.map((s) => s.state)).toEqual(['listening', 'recognising', 'inserted']);
    expect(execFileSync('xclip', ['-selection', 'clipboard', '-o'], { env, encoding: 'utf8' })).toBe('what I had copied');
    // Every dictation stays a job with its audio.
    const job = (await (await fetch(`${t.url}/v1/speech-to-text/${done.jobId}`, { headers: { authorization: `Bearer ${t.key}` } })).json()) as Job;
    expect(job.result?.text).toBe(done.text);
  } finally {
    await hotkey.close();
  }
}, scaled(420_000));

it('where insertion is impossible the error says why and the text is kept in the job', async () => {
  const env = { ...process.env };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  const states: IndicatorState[] = [];
  const dictation = new HotkeyDictation({
    serviceUrl: t.url,
    apiKey: t.key,
    model: () => 'pocketsphinx-en-us',
    microphone: () => new PulseSource('microphone', 'mic', pulse.env),
    inserter: chooseInserter({ platform: 'linux', env, mode: 'paste' }),
    show: (state) => states.push(state),
    log: silentLog,
    endTimeoutMs: 240_000,
  });
  dictation.start();
  await waitFor(() => states.some((s) => s.state === 'listening'), 'listening');
  await pulse.play(JFK_WAV, 'mic');
  const played = dictation.seconds;
  await waitFor(() => dictation.seconds >= played + 1, 'the whole sentence to be recorded', scaled(60_000));
  const done = await dictation.stop();
  expect(done.inserted).toBeNull();
  expect(done.error).toMatch(/no desktop session to insert into .*DISPLAY.*the text is kept in Jobs \(job_/);
  expect(states.at(-1)).toMatchObject({ state: 'error', jobId: done.jobId });
  const job = (await (await fetch(`${t.url}/v1/speech-to-text/${done.jobId}`, { headers: { authorization: `Bearer ${t.key}` } })).json()) as Job;
  expect(job.result?.text).toBe(done.text);
  expect(mostOfJfk(done.text), done.text).toBe(true);
}, scaled(420_000));
