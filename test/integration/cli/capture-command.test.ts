/**
 * `voxdesk capture` as a person runs it, against a private PulseAudio (test/helpers/capture-pulse.ts): `capture
 * sources` lists the devices, `capture start` records in the foreground and prints "You: …" lines while jfk.wav plays
 * into the microphone, `capture stop` from another process ends it and the first prints the job id.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCapturePulse, type CapturePulse } from '../../helpers/capture-pulse.js';
import { JFK_WAV } from '../../helpers/dictation-fixtures.js';
import { ROOT } from '../../helpers/service.js';
import { requireCommand } from '../../helpers/system.js';
import { scaled } from '../../helpers/time-scale.js';

const run = promisify(execFile);
let pulse: CapturePulse;
let dataDir: string;
const voxdesk = join(ROOT, 'bin/voxdesk.js');

beforeAll(() => {
  requireCommand('pocketsphinx_continuous', 'pocketsphinx');
  pulse = startCapturePulse();
  dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-capture-cli-'));
});
afterAll(() => pulse?.stop());

it('lists sources, captures in the foreground with a live transcript, and stops from another terminal', async () => {
  const env = { ...pulse.env, VOXDESK_DATA_DIR: dataDir };
  const sources = await run(process.execPath, [voxdesk, 'capture', 'sources'], { env, cwd: ROOT });
  expect(sources.stdout).toMatch(/^microphone\s+\* mic\s+\(Test-microphone\)$/m);
  expect(sources.stdout).toMatch(/^system\s+\* speakers\.monitor/m);

  const child = spawn(process.execPath, [voxdesk, 'capture', 'start', '--model', 'pocketsphinx-en-us'], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines: string[] = [];
  // Stopped once the whole sentence was heard (on a busy machine recognition may lag the audio by a minute or more).
  const heard = new Promise<void>((resolve) =>
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      if (lines.filter((l) => l.startsWith('You: ')).join(' ').includes('country')) resolve();
    }),
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no capture started: ${stderr}`)), 60_000);
    const check = setInterval(() => {
      if (stderr.includes('capturing mic (You)')) {
        clearInterval(check);
        clearTimeout(timer);
        resolve();
      }
    }, 100);
  });
  await pulse.play(JFK_WAV, 'mic');
  await heard;
  await run(process.execPath, [voxdesk, 'capture', 'stop'], { env, cwd: ROOT });
  expect(await exited, stderr).toBe(0);
  expect(lines.at(-1)).toMatch(/^job_/);
  expect(lines.filter((l) => l.startsWith('You: ')).join(' ')).toContain('country');
}, scaled(420_000));
