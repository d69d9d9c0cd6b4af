/**
 * The PocketSphinx catalogue source keeps its row: the VAD model is compared on every read, the system install is
 * looked for again, off the thread, after POCKETSPHINX_RECHECK_MS (time moved by the test), and version() moves
 * exactly when the row does.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POCKETSPHINX_MISSING } from '../../../../src-main/engines/asr/pocketsphinx-install.js';
import { pocketsphinxModelSource, POCKETSPHINX_RECHECK_MS } from '../../../../src-main/engines/asr/pocketsphinx-models.js';

const dir = mkdtempSync(join(tmpdir(), 'voxdesk-ps-source-'));
const saved = { program: process.env.VOXDESK_POCKETSPHINX, model: process.env.VOXDESK_POCKETSPHINX_MODEL_DIR };

beforeAll(() => {
  // A stand-in install: any executable as the program, the three model files the engine needs.
  mkdirSync(join(dir, 'en-us'));
  for (const file of ['en-us/mdef', 'en-us.lm.bin', 'cmudict-en-us.dict']) writeFileSync(join(dir, file), '');
  process.env.VOXDESK_POCKETSPHINX = process.execPath;
  process.env.VOXDESK_POCKETSPHINX_MODEL_DIR = dir;
});

afterAll(() => {
  for (const [name, value] of [
    ['VOXDESK_POCKETSPHINX', saved.program],
    ['VOXDESK_POCKETSPHINX_MODEL_DIR', saved.model],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('PocketSphinx model source', () => {
  it('a VAD model shows at once; a removed install shows after the recheck interval, looked for off the thread', async () => {
    let vad: string | null = null;
    let now = 1_000_000;
    const source = pocketsphinxModelSource({ dataDir: dir, vadModel: () => vad }, { now: () => now });
    const v1 = source.version!();
    const [row] = source.list();
    expect(row).toMatchObject({ status: 'available', live: false, engineConfig: { program: process.execPath } });
    expect(row!.engineConfig).not.toHaveProperty('vadModel');
    expect(source.version!()).toBe(v1);
    expect(source.list()[0]).toBe(row);

    vad = '/models/silero/vad.onnx';
    const v2 = source.version!();
    expect(v2).not.toBe(v1);
    expect(source.list()[0]).toMatchObject({ live: true, engineConfig: { vadModel: '/models/silero/vad.onnx' } });

    rmSync(join(dir, 'en-us.lm.bin'));
    now += POCKETSPHINX_RECHECK_MS - 1;
    expect(source.version!()).toBe(v2);
    await source.looked();
    expect(source.list()[0]!.status).toBe('available');
    now += 1;
    // The read that finds the last look too old answers with what it knew and starts a look; the reads after it see it.
    expect(source.version!()).toBe(v2);
    await source.looked();
    const v3 = source.version!();
    expect(v3).not.toBe(v2);
    expect(source.list()[0]).toMatchObject({ status: 'unavailable', reason: POCKETSPHINX_MISSING, live: false });

    writeFileSync(join(dir, 'en-us.lm.bin'), '');
    now += POCKETSPHINX_RECHECK_MS;
    source.version!();
    await source.looked();
    expect(source.version!()).not.toBe(v3);
    expect(source.list()[0]!.status).toBe('available');
    const v4 = source.version!();
    now += POCKETSPHINX_RECHECK_MS;
    source.version!();
    await source.looked();
    expect(source.version!()).toBe(v4);
  });
});
