/**
 * One way to log and one way to fail hold because ESLint says so: console, stderr writes and process warnings are
 * refused in src-main outside the log sinks and the CLI's output module, and an error class outside common/errors.ts
 * and the allow-list of eslint.config.js (each entry with its reason) fails lint.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function rulesIn(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return result!.messages.map((m) => m.ruleId ?? '').filter((rule) => rule.startsWith('no-restricted-'));
}

const LOGGING = "export function f(): void {\n  console.error('x');\n  process.stderr.write('y');\n  process.emitWarning('z');\n}\n";
const ERROR_CLASS = 'export class OddError extends Error {}\n';

describe('one way to log', () => {
  it('refuses console, process.stderr and process.emitWarning in a module of any floor', async () => {
    for (const floor of ['common', 'engines', 'jobs', 'service', 'app', 'cli']) {
      expect(await rulesIn(`src-main/${floor}/some-module.ts`, LOGGING), floor).toEqual(['no-restricted-globals', 'no-restricted-properties', 'no-restricted-properties']);
    }
  });

  it('lets the sinks and the CLI output module write to stderr', async () => {
    expect(await rulesIn('src-main/common/log-sinks.ts', LOGGING)).toEqual([]);
    expect(await rulesIn('src-main/cli/output.ts', LOGGING)).toEqual([]);
  });
});

describe('one way to fail', () => {
  it('refuses a new error class outside common/errors.ts', async () => {
    expect(await rulesIn('src-main/models/some-module.ts', ERROR_CLASS)).toEqual(['no-restricted-syntax']);
    expect(await rulesIn('src-main/service/some-module.ts', 'import { ApiError } from "../common/errors.js";\nexport class Odd extends ApiError {}\n')).toEqual(['no-restricted-syntax']);
    expect(await rulesIn('src-main/common/errors.ts', ERROR_CLASS)).toEqual([]);
  });
});
