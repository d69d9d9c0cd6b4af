import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blendSlots, designedVoicesDir, MAX_CACHED_FILES, slotVoicesFile } from '../../../../../src-main/engines/tts/design/blended-voices.js';

const work = mkdtempSync(join(tmpdir(), 'voxdesk-blend-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the voices file of a designed voice', () => {
  it('blends the weighted slots element by element', () => {
    const base = new Float32Array([1, 2, 10, 20, 100, 200]);
    expect(Array.from(blendSlots(base, 3, [{ name: 'a', speaker: 0, weight: 0.5 }, { name: 'c', speaker: 2, weight: 0.5 }]))).toEqual([50.5, 101]);
    expect(() => blendSlots(base, 4, [])).toThrow(/whole number/);
    expect(() => blendSlots(base, 3, [{ name: 'x', speaker: 3, weight: 1 }])).toThrow(/speaker 3/);
  });

  it('is the base file\'s size, each slot a blend or the model\'s own voice, made once, and the oldest removed past the cache size', () => {
    const basePath = join(work, 'voices.bin');
    writeFileSync(basePath, new Uint8Array(new Float32Array([1, 2, 3, 4, 5, 6]).buffer));
    const cache = designedVoicesDir(join(work, 'data', 'artifacts', 'job_1'));
    expect(cache).toBe(join(work, 'data', 'designed-voices'));
    const slots = [[{ name: 'c', speaker: 2, weight: 1 }], null, [{ name: 'a', speaker: 0, weight: 0.5 }, { name: 'c', speaker: 2, weight: 0.5 }]];
    const path = slotVoicesFile(basePath, 3, slots, cache);
    expect(statSync(path).size).toBe(statSync(basePath).size);
    expect(Array.from(new Float32Array(new Uint8Array(readFileSync(path)).buffer))).toEqual([5, 6, 3, 4, 3, 4]);
    expect(slotVoicesFile(basePath, 3, slots, cache)).toBe(path);
    for (let i = 1; i <= MAX_CACHED_FILES + 2; i++) slotVoicesFile(basePath, 3, [[{ name: 'a', speaker: 0, weight: i / 100 }], null, null], cache);
    expect(readdirSync(cache).length).toBe(MAX_CACHED_FILES);
  });
});
