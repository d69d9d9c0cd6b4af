/**
 * Dictate anywhere, key release → text in the focused app (issue 30, docs/capture.md): under a private X server with a
 * Tk text field, the real keyboard hook and a private PulseAudio whose microphone says a short sentence, xdotool holds
 * Ctrl+Alt+Space while it is said and releases it; timed per run from the release to (a) the recognizer's last final
 * (its own latency, the baseline of the same run) and (b) the text being in the app (the field's content changed; the
 * clipboard is given back after that). The goal: (b) at
 * most 150 ms over (a), p50 and p95. Prints one JSON line. Usage: node --import tsx bench/capture-hotkey-latency.ts [RUNS=10]
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DesktopHotkey } from '../src-main/app/hotkey/desktop-hotkey.js';
import type { DictationOutcome } from '../src-main/app/hotkey/hotkey-dictation.js';
import { DEFAULT_HOTKEY_SETTINGS } from '../src-main/app/hotkey/hotkey-settings.js';
import { pocketsphinxModelSource } from '../src-main/engines/asr/pocketsphinx-models.js';
import { PulseSource } from '../src-main/engines/capture/pulse-source.js';
import { startCapturePulse } from '../test/helpers/capture-pulse.js';
import { JFK_WAV } from '../test/helpers/dictation-fixtures.js';
import { ROOT, startTestService } from '../test/helpers/service.js';
import { startXvfb } from '../test/helpers/xvfb.js';
import { percentile, round3 } from './_stats.js';
import { createLog } from '../src-main/common/log.js';
import { textSink } from '../src-main/common/log-sinks.js';

const runs = Number(process.argv[2] ?? 10);
const dir = mkdtempSync(join(tmpdir(), 'voxdesk-bench-hotkey-'));
const fieldFile = join(dir, 'field.txt');
// A short sentence: the first 4 s of jfk.wav ("And so, my fellow Americans").
const sentence = join(dir, 'sentence.wav');
execFileSync('sox', [JFK_WAV, sentence, 'trim', '0', '4']);

async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const { display } = await startXvfb();
const env = { ...process.env, DISPLAY: display };
const pulse = startCapturePulse();
const field = spawn('/usr/bin/python3', [join(ROOT, 'test/helpers/x11-text-field.py'), fieldFile], { env, stdio: 'ignore' });
const svc = await startTestService({ builtInModels: true, extraModelSources: [pocketsphinxModelSource] });
try {
  await until(() => existsSync(`${fieldFile}.ready`), 'the text field');
  let shown = 'idle';
  const hotkey = new DesktopHotkey({
    serviceUrl: svc.url,
    apiKey: svc.key,
    env,
    platform: 'linux',
    microphone: () => new PulseSource('microphone', 'mic', pulse.env),
    indicator: (state) => void (shown = state.state),
    log: createLog(textSink()),
  });
  const status = await hotkey.apply({ ...DEFAULT_HOTKEY_SETTINGS, model: 'pocketsphinx-en-us' });
  if (!status.armed) throw new Error(`the shortcut is not armed: ${status.problem}`);
  const recognizer: number[] = [];
  const inserted: number[] = [];
  const over: number[] = [];
  const x = (...args: string[]): void => void execFileSync('xdotool', args, { env });
  const content = (): string => (existsSync(fieldFile) ? readFileSync(fieldFile, 'utf8') : '');
  for (let i = 0; i <= runs; i++) {
    x('keydown', 'ctrl+alt+space');
    // As a person does: speak once it listens (the microphone's recorder has started), let go just after the last word.
    await until(() => shown === 'listening', 'listening');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await pulse.play(sentence, 'mic');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = content();
    const previous = hotkey.lastOutcome();
    const released = performance.now();
    x('keyup', 'ctrl+alt+space');
    // The text is in the app when the field's own content changes (the Tk field writes it at every change).
    let arrived = 0;
    let ended: DictationOutcome | null = null;
    await until(() => hotkey.lastOutcome() !== previous, 'the release');
    void hotkey.lastOutcome()!.then((outcome) => (ended = outcome));
    await until(() => {
      if (ended?.error) throw new Error(`run ${i}: ${ended.error}`);
      if (content() === before) return false;
      arrived = performance.now();
      return true;
    }, 'the text in the field');
    const done = await hotkey.lastOutcome()!;
    if (done.error || done.lastFinalAt === null) throw new Error(`run ${i}: ${done.error ?? 'no final'}`);
    if (!content().includes(done.text)) throw new Error(`run ${i}: the field holds "${content()}", not "${done.text}"`);
    if (i === 0) continue; // warm-up: the recognizer's first utterance
    recognizer.push(done.lastFinalAt - released);
    inserted.push(arrived - released);
    over.push(arrived - done.lastFinalAt);
    process.stderr.write(`capture-hotkey-latency: run ${i}: last final ${Math.round(done.lastFinalAt - released)} ms, in the app ${Math.round(arrived - released)} ms after the release\n`);
  }
  await hotkey.close();
  const ms = (values: number[], p: number): number => round3(percentile(values, p));
  console.log(
    JSON.stringify({
      bench: 'capture-hotkey-latency',
      runs,
      release_to_final_ms: { p50: ms(recognizer, 50), p95: ms(recognizer, 95) },
      release_to_inserted_ms: { p50: ms(inserted, 50), p95: ms(inserted, 95) },
      inserted_over_final_ms: { p50: ms(over, 50), p95: ms(over, 95) },
      goal_ms_over_final: 150,
    }),
  );
} finally {
  field.kill();
  await svc.stop();
  pulse.stop();
}
