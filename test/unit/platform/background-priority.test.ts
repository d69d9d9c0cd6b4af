/**
 * Background work runs behind the service thread (platform/background-priority.ts): a worker thread that lowers
 * itself lowers only itself on Linux, never the thread that answers requests.
 */
import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_PRIORITY, lowerThisThread } from '../../../src-main/platform/background-priority.js';

describe('background priority', () => {
  it('a thread lowered on Linux runs at the background priority while the service thread keeps its own', async () => {
    expect(process.platform).toBe('linux'); // these machines and CI; other OSes are what lowerThisThread refuses
    const before = getPriority();
    const module = new URL('../../../src-main/platform/background-priority.ts', import.meta.url).href;
    const api = new URL('../../../node_modules/tsx/dist/esm/api/index.mjs', import.meta.url).href;
    const code = `
      const { parentPort } = require('node:worker_threads');
      const { getPriority } = require('node:os');
      import(${JSON.stringify(api)}).then(({ tsImport }) => tsImport(${JSON.stringify(module)}, ${JSON.stringify(module)}))
        .then(({ lowerThisThread }) => parentPort.postMessage({ lowered: lowerThisThread(), priority: getPriority() }));`;
    const thread = new Worker(code, { eval: true });
    const answer = await new Promise<{ lowered: boolean; priority: number }>((resolve, reject) => {
      thread.once('message', resolve);
      thread.once('error', reject);
    });
    await thread.terminate();
    expect(answer).toEqual({ lowered: true, priority: Math.max(before, BACKGROUND_PRIORITY) });
    expect(getPriority()).toBe(before);
  });

  it('does nothing where a thread has no priority of its own (it would lower the whole process)', () => {
    const before = getPriority();
    expect(lowerThisThread('darwin')).toBe(false);
    expect(lowerThisThread('win32')).toBe(false);
    expect(getPriority()).toBe(before);
  });
});
