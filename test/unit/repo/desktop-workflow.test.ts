/**
 * .github/workflows/desktop.yml is a valid GitHub Actions workflow (the GitHub workflow JSON schema, through
 * @action-validator/core) and does what docs/desktop-app.md says: the desktop smoke test and the installers on
 * Linux, macOS and Windows, the installers kept as artifacts, published as a release for a version tag.
 */
import { validateWorkflow } from '@action-validator/core';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url).pathname;
const source = readFileSync(join(ROOT, '.github', 'workflows', 'desktop.yml'), 'utf8');
// js-yaml: electron-builder's own YAML reader (a dependency of app-builder-lib).
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
}
const workflow = yaml.load(source) as {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: { desktop: { strategy: { matrix: { os: string[] } }; 'runs-on': string; steps: Step[] } };
};
const steps = workflow.jobs.desktop.steps;

describe('the desktop workflow', () => {
  it('is valid against the GitHub workflow schema', () => {
    expect(validateWorkflow(source).errors).toEqual([]);
    // The schema is strict: a misspelt key fails.
    expect(validateWorkflow(source.replace('runs-on:', 'runs-onn:')).errors.length).toBeGreaterThan(0);
  });

  it('runs on Linux, macOS and Windows for pushes, pull requests and version tags', () => {
    expect(workflow.jobs.desktop.strategy.matrix.os).toEqual(['ubuntu-latest', 'macos-latest', 'windows-latest']);
    expect(workflow.jobs.desktop['runs-on']).toBe('${{ matrix.os }}');
    expect(workflow.on).toMatchObject({ pull_request: null, push: { branches: ['main'], tags: ['v*'] } });
  });

  it('runs the desktop smoke test (under a virtual display on Linux) and builds the installers', () => {
    const runs = steps.map((s) => s.run ?? '');
    expect(runs).toContain('npm ci --no-audit --no-fund');
    expect(runs).toContain('xvfb-run -a npm run test:desktop');
    expect(runs).toContain('npm run test:desktop');
    expect(runs.some((r) => r.startsWith('npm run dist -- --publish'))).toBe(true);
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['test:desktop']).toBe('npm run natives:electron && npm run build && vitest run --config vitest.desktop.config.ts');
  });

  it('keeps the installers as artifacts and may publish a release', () => {
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.with?.path).toMatch(/release\/\*\.AppImage[\s\S]*release\/\*\.dmg[\s\S]*release\/\*\.exe/);
    expect(upload?.with?.['if-no-files-found']).toBe('error');
    expect(workflow.permissions).toEqual({ contents: 'write' });
  });
});
