/**
 * The last-resort handlers in a real child process: an exception thrown from a timer and a rejected promise nobody
 * awaits are logged, and the process carries on (it would exit with code 1 without them).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scaled } from '../../helpers/time-scale.js';

const module = fileURLToPath(new URL('../../../src-main/service/last-resort.ts', import.meta.url));
const log = fileURLToPath(new URL('../../../src-main/common/log.ts', import.meta.url));

describe('installLastResortHandlers', () => {
  it('logs an uncaught exception and an unhandled rejection, and the process keeps running', () => {
    const script = `
      const { installLastResortHandlers } = await import(${JSON.stringify(module)});
      const { createLog } = await import(${JSON.stringify(log)});
      const caught = installLastResortHandlers({ log: createLog((line) => console.error(line.level + ' ' + line.message.split('\\n')[0])) });
      setTimeout(() => { throw new Error('EEXIST from an entry handler'); }, 5);
      setTimeout(() => { Promise.reject(new Error('nobody awaited this')); }, 10);
      setTimeout(() => console.log('still serving after', caught(), 'errors'), 50);
    `;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: scaled(30_000) });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('still serving after 2 errors');
    expect(run.stderr).toContain('error uncaught exception (a bug, logged and survived; the service keeps serving): Error: EEXIST from an entry handler');
    expect(run.stderr).toContain('error unhandled promise rejection (a bug, logged and survived; the service keeps serving): Error: nobody awaited this');
  });
});
