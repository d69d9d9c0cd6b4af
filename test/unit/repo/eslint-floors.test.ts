/**
 * The floors of src-main hold because ESLint says so: this lints a one-line import, as if written in a file of each
 * floor, with the repository's own eslint.config.js, and expects `no-restricted-imports` for every import that runs
 * back up (or across the top floor) and silence for every import that runs down.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const FLOORS = [['common'], ['platform'], ['store'], ['engines'], ['models'], ['jobs'], ['remote'], ['watch'], ['service'], ['app', 'cli']];
const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedIn(file: string, specifier: string): Promise<string[]> {
  const code = `import { thing } from '${specifier}';\nexport const used = thing;\n`;
  const [result] = await eslint.lintText(code, { filePath: file });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const pairs = FLOORS.flatMap((floor, level) =>
  floor.flatMap((from) =>
    FLOORS.flatMap((other, otherLevel) =>
      other.filter((to) => to !== from).map((to) => ({ from, to, upward: otherLevel >= level })),
    ),
  ),
);

describe('eslint floors', () => {
  for (const { from, to } of pairs.filter((p) => p.upward)) {
    it(`${from}/ importing ${to}/ fails lint`, async () => {
      const messages = await restrictedIn(`src-main/${from}/some-module.ts`, `../${to}/some-module.js`);
      expect(messages.join('\n')).toMatch(/Floors import downward only/);
    });
  }

  for (const { from, to } of pairs.filter((p) => !p.upward)) {
    it(`${from}/ importing ${to}/ passes lint`, async () => {
      expect(await restrictedIn(`src-main/${from}/some-module.ts`, `../${to}/some-module.js`)).toEqual([]);
    });
  }

  it('catches an upward import from a nested folder too', async () => {
    expect(await restrictedIn('src-main/engines/asr/some-module.ts', '../../jobs/job-runner.js')).toHaveLength(1);
    expect(await restrictedIn('src-main/service/routes/some-module.ts', '../../../src-main/app/main.js')).toHaveLength(1);
  });

  it('keeps the renderer to src-main/common, through the $common alias', async () => {
    const file = 'src-renderer/src/lib/some-module.ts';
    expect(await restrictedIn(file, '$common/errors.js')).toEqual([]);
    expect(await restrictedIn(file, '../../../src-main/common/errors.js')).toHaveLength(1);
    expect(await restrictedIn(file, '../../../src-main/engines/engine-types.js')).toHaveLength(1);
    expect(await restrictedIn(file, '../../../src-main/store/ids.js')).toHaveLength(1);
    expect(await restrictedIn(file, '$common/../engines/engine-types.js')).toHaveLength(1);
    expect(await restrictedIn(file, 'node:fs')).toHaveLength(1);
  });

  it('keeps electron in app/ and naudiodon in the player', async () => {
    expect(await restrictedIn('src-main/service/some-module.ts', 'electron')).toHaveLength(1);
    expect(await restrictedIn('src-main/app/some-module.ts', 'electron')).toEqual([]);
    expect(await restrictedIn('src-main/app/some-module.ts', 'naudiodon')).toHaveLength(1);
    expect(await restrictedIn('src-main/app/player/some-module.ts', 'naudiodon')).toEqual([]);
    expect(await restrictedIn('src-main/app/player/some-module.ts', '../../cli/main.js')).toHaveLength(1);
    expect(await restrictedIn('src-main/common/some-module.ts', 'node:path')).toHaveLength(1);
  });
});
