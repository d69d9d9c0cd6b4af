/**
 * The app's worker launcher (src-main/app/utility-process-launcher.ts) with real Node children behind a stand-in for
 * Electron's utilityProcess (test/helpers/fake-utility-process.ts, the one faked boundary): the job engine's workers
 * and a live neural voice run over `process.parentPort` exactly as they do inside the packaged app.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { utilityProcessLauncher } from '../../../src-main/app/utility-process-launcher.js';
import type { ChildEvents } from '../../../src-main/engines/worker/process-launcher.js';
import { NeuralVoicePool } from '../../../src-main/engines/live/neural-voice-pool.js';
import { fakeUtilityProcess } from '../../helpers/fake-utility-process.js';
import { createHarness, terminal, type Harness } from '../jobs/harness.js';
import { tinyVitsModel } from '../../helpers/live-harness.js';
import { logInto } from '../../helpers/log.js';
import { scaled } from '../../helpers/time-scale.js';
import { until } from '../../helpers/wait.js';

const scratch = mkdtempSync(join(tmpdir(), 'voxdesk-utility-'));
/** Every stand-in made here: whatever a failed test left running is killed at the end. */
const fakes: ReturnType<typeof fakeUtilityProcess>[] = [];
function fake(): ReturnType<typeof fakeUtilityProcess> {
  const made = fakeUtilityProcess();
  fakes.push(made);
  return made;
}
afterAll(() => {
  for (const { child } of fakes.flatMap((f) => f.forks)) {
    if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
  }
  rmSync(scratch, { recursive: true, force: true });
});

/** Events of one launched child, as promises. */
function recorder() {
  const messages: unknown[] = [];
  let endedWith!: (how: string) => void;
  const ended = new Promise<string>((resolve) => (endedWith = resolve));
  let count = 0;
  const events: ChildEvents = {
    message: (m) => messages.push(m),
    ended: (how) => {
      count++;
      endedWith(how);
    },
  };
  return { events, messages, ended, endedCount: () => count };
}

/** This file's waits (helpers/wait.ts). */
const WAIT = { timeoutMs: scaled(20_000), everyMs: 20 };

describe('utility-process launcher', () => {
  it('messages both ways over the parent port, output appended to a file, one end report', async () => {
    const script = join(scratch, 'echo.mjs');
    writeFileSync(script, `
      process.parentPort.on('message', (e) => {
        if (e.data === 'bye') process.exit(3);
        process.stderr.write('got ' + JSON.stringify(e.data) + '\\n');
        process.parentPort.postMessage({ echo: e.data, samples: new Int16Array([1, -2, 3]) });
      });
    `);
    const log = join(scratch, 'echo.log');
    const utility = fake();
    const r = recorder();
    const child = utilityProcessLauncher(utility)({ modulePath: script, name: 'echo', output: { file: log }, env: { ...process.env, MARK: '1' } }, r.events);
    child.send({ n: 1, missing: undefined }); // posted before the spawn: queued, as in Electron
    await until('the echo', () => r.messages.length === 1, Boolean, WAIT);
    expect(r.messages[0]).toEqual({ echo: { n: 1, missing: undefined }, samples: new Int16Array([1, -2, 3]) });
    expect(child.pid).toBeTypeOf('number');
    expect(utility.forks[0]!.options).toMatchObject({ stdio: 'pipe', serviceName: 'echo', execArgv: [] });
    expect(utility.forks[0]!.options.env?.MARK).toBe('1');
    child.send('bye');
    expect(await r.ended).toBe('exited with code 3');
    expect(child.pid).toBeUndefined();
    child.send('after the end'); // ignored, no second report
    await new Promise((r) => setTimeout(r, 100));
    expect(r.endedCount()).toBe(1);
    expect(readFileSync(log, 'utf8')).toContain('got {"n":1}');
  });

  it('kill() ends a child that ignores SIGTERM (UtilityProcess.kill is only SIGTERM)', async () => {
    const script = join(scratch, 'stubborn.mjs');
    writeFileSync(script, `
      process.on('SIGTERM', () => process.stderr.write('ignoring SIGTERM\\n'));
      process.parentPort.on('message', () => process.parentPort.postMessage('ready'));
      setInterval(() => {}, 1000);
    `);
    const text: string[] = [];
    const r = recorder();
    const child = utilityProcessLauncher(fake())({ modulePath: script, name: 'stubborn', output: { text: (t) => text.push(t) } }, r.events);
    child.send('ping');
    await until('ready', () => r.messages.length === 1, Boolean, WAIT);
    child.kill();
    expect(await r.ended).toBe('exited with code 137'); // 128 + SIGKILL
    expect(text.join('')).not.toContain('ignoring SIGTERM');
  });

  it('a kill before the spawn is carried out once the child is up', async () => {
    const script = join(scratch, 'idle.mjs');
    writeFileSync(script, `process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);`);
    const r = recorder();
    const child = utilityProcessLauncher(fake())({ modulePath: script, name: 'idle' }, r.events);
    expect(child.pid).toBeUndefined();
    child.kill();
    expect(await r.ended).toBe('exited with code 137');
  });
});

describe('the job engine on utility-process workers', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('runs jobs; a crash fails only its job and the worker comes back; a hung job is killed on cancel', async () => {
    const utility = fake();
    const lines: string[] = [];
    h = createHarness({ workers: 1, cancelGraceMs: 500, workerLauncher: utilityProcessLauncher(utility), log: logInto(lines) });
    await h.service.start();
    const ok = (await h.service.createJob(h.job({ behaviour: 'succeed', artifact: true }))).job;
    expect((await terminal(h.service, h.accountId, ok.id)).status).toBe('succeeded');
    expect(utility.forks[0]).toMatchObject({ options: { stdio: 'pipe', serviceName: 'voxdesk worker 0' } });

    const bad = (await h.service.createJob(h.job({ behaviour: 'crash' }))).job;
    const crashed = await terminal(h.service, h.accountId, bad.id);
    expect(crashed).toMatchObject({ status: 'failed', error_code: 'engine_crashed' });
    expect(crashed.error_message).toMatch(/exited with code 139/); // 128 + SIGSEGV

    const hung = (await h.service.createJob(h.job({ behaviour: 'hang' }))).job;
    await until('the hung job to run', () => h!.repos.jobs.get(hung.id)?.status === 'running', Boolean, WAIT);
    await h.service.cancelJob(h.accountId, 'speech-to-text', hung.id);
    expect(await terminal(h.service, h.accountId, hung.id, scaled(10_000))).toMatchObject({ status: 'cancelled' });

    const after = (await h.service.createJob(h.job({ behaviour: 'succeed' }))).job;
    expect((await terminal(h.service, h.accountId, after.id)).status).toBe('succeeded');
    expect(h.service.workerStats().started).toBeGreaterThanOrEqual(3);
    // The pool's line on the crash is in the service's log.
    expect(lines).toContain('worker 0: the worker process exited with code 139');
  });
});

describe('a live neural voice in a utility process', () => {
  it('tiny-vits streams the README sample count as Int16Array chunks', async () => {
    const logs: string[] = [];
    const pool = new NeuralVoicePool(logInto(logs), utilityProcessLauncher(fake()));
    try {
      const voice = await pool.voice(tinyVitsModel(), 1);
      expect(voice.sampleRate).toBe(22050);
      let samples = 0;
      const handle = voice.speakSentence({
        text: 'hello world',
        speed: 1,
        onSamples: (chunk) => {
          expect(chunk).toBeInstanceOf(Int16Array);
          samples += chunk.length;
        },
      });
      await handle.done;
      expect(samples).toBe(23552);
    } finally {
      await pool.close();
    }
  });
});
