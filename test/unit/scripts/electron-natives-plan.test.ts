/**
 * The plan of `npm run natives:electron` (scripts/electron-natives/plan.ts): which add-ons, which versions, for which
 * Electron and ABI, into which folder, and when there is nothing to do.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manifestFor, planElectronNatives } from '../../../scripts/electron-natives/plan.js';
import { appRoot } from '../../../src-main/platform/native-addons.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A checkout with electron and the add-ons at the given versions (null: not installed). */
function fakeProject(versions: { electron: string; 'better-sqlite3': string | null; 'segfault-handler': string | null }): string {
  const dir = mkdtempSync(join(tmpdir(), 'voxdesk-plan-'));
  dirs.push(dir);
  for (const [name, version] of Object.entries(versions)) {
    if (version === null) continue;
    mkdirSync(join(dir, 'node_modules', name), { recursive: true });
    writeFileSync(join(dir, 'node_modules', name, 'package.json'), JSON.stringify({ name, version }));
  }
  return dir;
}

const versionOf = (name: string): string => (JSON.parse(readFileSync(join(appRoot(), 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

describe('planElectronNatives', () => {
  it('in this checkout: better-sqlite3 and segfault-handler at their installed versions for the installed Electron, ABI from node-abi', () => {
    const plan = planElectronNatives({ projectDir: appRoot(), nativesDir: '/nowhere', platform: 'linux', arch: 'x64' });
    expect(plan.electron).toBe(versionOf('electron'));
    expect(plan.electron.split('.')[0]).toBe('38');
    expect(plan.abi).toBe('139');
    expect(plan.folder).toBe(join('/nowhere', 'electron-abi139-linux-x64'));
    expect(plan.addons.map((a) => [a.package, a.version])).toEqual([
      ['better-sqlite3', versionOf('better-sqlite3')],
      ['segfault-handler', versionOf('segfault-handler')],
    ]);
    expect(plan.addons[0]!.source).toBe(join(appRoot(), 'node_modules', 'better-sqlite3'));
    expect(plan.upToDate).toBe(false);
  });

  it('takes the ABI of another Electron from node-abi, and the platform and architecture asked for', () => {
    const project = fakeProject({ electron: '37.2.0', 'better-sqlite3': '12.0.0', 'segfault-handler': '1.3.0' });
    const plan = planElectronNatives({ projectDir: project, nativesDir: '/n', platform: 'win32', arch: 'arm64' });
    expect(plan.abi).toBe('136');
    expect(plan.folder).toBe(join('/n', 'electron-abi136-win32-arm64'));
  });

  it('leaves out segfault-handler when naudiodon (optional) was not installed, and says so', () => {
    const project = fakeProject({ electron: '38.8.6', 'better-sqlite3': '12.11.1', 'segfault-handler': null });
    const plan = planElectronNatives({ projectDir: project, nativesDir: '/n' });
    expect(plan.addons.map((a) => a.package)).toEqual(['better-sqlite3']);
    expect(plan.absent).toEqual(['segfault-handler']);
  });

  it('stops with "run npm install" when Electron or better-sqlite3 is missing', () => {
    const noSqlite = fakeProject({ electron: '38.8.6', 'better-sqlite3': null, 'segfault-handler': null });
    expect(() => planElectronNatives({ projectDir: noSqlite, nativesDir: '/n' })).toThrow(/better-sqlite3 is not installed.*npm install/);
    const empty = mkdtempSync(join(tmpdir(), 'voxdesk-plan-'));
    dirs.push(empty);
    expect(() => planElectronNatives({ projectDir: empty, nativesDir: '/n' })).toThrow(/Electron is not installed.*npm install/);
  });

  it('is up to date only when the manifest names this Electron and these versions and every binary is there', () => {
    const project = fakeProject({ electron: '38.8.6', 'better-sqlite3': '12.11.1', 'segfault-handler': '1.3.0' });
    const natives = join(project, 'natives');
    const first = planElectronNatives({ projectDir: project, nativesDir: natives, platform: 'linux', arch: 'x64' });
    mkdirSync(first.folder, { recursive: true });
    for (const addon of first.addons) writeFileSync(join(first.folder, addon.file), '');
    writeFileSync(join(first.folder, 'manifest.json'), JSON.stringify(manifestFor(first)));
    expect(planElectronNatives({ projectDir: project, nativesDir: natives, platform: 'linux', arch: 'x64' }).upToDate).toBe(true);

    // A new better-sqlite3 from npm install: built again.
    writeFileSync(join(project, 'node_modules', 'better-sqlite3', 'package.json'), JSON.stringify({ name: 'better-sqlite3', version: '12.12.0' }));
    expect(planElectronNatives({ projectDir: project, nativesDir: natives, platform: 'linux', arch: 'x64' }).upToDate).toBe(false);
    writeFileSync(join(project, 'node_modules', 'better-sqlite3', 'package.json'), JSON.stringify({ name: 'better-sqlite3', version: '12.11.1' }));

    // Another Electron patch release of the same ABI: built again (the manifest names the version).
    writeFileSync(join(project, 'node_modules', 'electron', 'package.json'), JSON.stringify({ name: 'electron', version: '38.8.7' }));
    expect(planElectronNatives({ projectDir: project, nativesDir: natives, platform: 'linux', arch: 'x64' }).upToDate).toBe(false);
    writeFileSync(join(project, 'node_modules', 'electron', 'package.json'), JSON.stringify({ name: 'electron', version: '38.8.6' }));

    // A binary gone: built again.
    rmSync(join(first.folder, 'segfault-handler.node'));
    expect(planElectronNatives({ projectDir: project, nativesDir: natives, platform: 'linux', arch: 'x64' }).upToDate).toBe(false);
  });

  it('writes a manifest naming the Electron, the ABI and each add-on’s version and file', () => {
    const project = fakeProject({ electron: '38.8.6', 'better-sqlite3': '12.11.1', 'segfault-handler': '1.3.0' });
    const plan = planElectronNatives({ projectDir: project, nativesDir: '/n', platform: 'linux', arch: 'x64' });
    expect(manifestFor(plan)).toEqual({
      electron: '38.8.6',
      abi: '139',
      platform: 'linux',
      arch: 'x64',
      addons: {
        'better-sqlite3': { version: '12.11.1', file: 'better_sqlite3.node' },
        'segfault-handler': { version: '1.3.0', file: 'segfault-handler.node' },
      },
    });
  });
});
