import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { memoryTrimmer } from '../../../src-main/platform/free-memory.js';
import { ROOT } from '../../helpers/service.js';

describe('free memory trimmer', () => {
  it("on Linux with glibc, gives a fragmented heap's free pages back to the OS", () => {
    // A child fills its C heap with 64 KB blocks (Buffer contents come from malloc), frees all but every 50th (the
    // heap cannot shrink from its top), and reports its resident memory before and after the trim.
    const script = `
      import { readFileSync } from 'node:fs';
      import { memoryTrimmer } from './src-main/platform/free-memory.ts';
      const rss = () => Number(readFileSync('/proc/self/statm', 'utf8').split(' ')[1]) * 4096;
      let blocks = Array.from({ length: 3000 }, () => Buffer.alloc(64 * 1024, 1));
      blocks = blocks.filter((_, i) => i % 50 === 0);
      globalThis.gc(); globalThis.gc();
      const before = rss();
      const released = memoryTrimmer()();
      console.log(JSON.stringify({ released, before, after: rss(), kept: blocks.length }));`;
    const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout) as { released: boolean; before: number; after: number; kept: number };
    expect(result.released).toBe(true);
    expect(result.before - result.after).toBeGreaterThan(50 * 1024 * 1024);
    expect(memoryTrimmer()).toBe(memoryTrimmer()); // bound once
  });

  it('does nothing where glibc is not the allocator', () => {
    expect(memoryTrimmer('darwin')()).toBe(false);
    expect(memoryTrimmer('win32')()).toBe(false);
  });
});
