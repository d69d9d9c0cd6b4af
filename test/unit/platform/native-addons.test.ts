/**
 * Where each runtime finds an ABI-specific add-on (platform/native-addons.ts), and the guard that keeps the list whole:
 * every native package of the product's installed production dependencies is either built per ABI or known to load
 * in any runtime.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ABI_SPECIFIC_ADDONS,
  appRoot,
  electronAddonPath,
  electronNativesFolderName,
  MissingNativeAddonError,
  nativesRoot,
  PORTABLE_NATIVE_PACKAGES,
  unpackedPath,
  type RuntimeIdentity,
} from '../../../src-main/platform/native-addons.js';

const electron: RuntimeIdentity = { electron: '38.8.6', modules: '139', platform: 'linux', arch: 'x64' };
const node: RuntimeIdentity = { electron: undefined, modules: '115', platform: 'linux', arch: 'x64' };

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'voxdesk-natives-'));
  dirs.push(dir);
  return dir;
}

describe('electronAddonPath', () => {
  it('under Node leaves the add-on to find npm’s build (null), whatever the natives folder holds', () => {
    expect(electronAddonPath('better-sqlite3', node, tempRoot())).toBeNull();
  });

  it('under Electron answers the binary in the folder of its ABI, platform and architecture', () => {
    const root = tempRoot();
    const folder = join(root, 'electron-abi139-linux-x64');
    mkdirSync(folder);
    writeFileSync(join(folder, 'better_sqlite3.node'), '');
    writeFileSync(join(folder, 'segfault-handler.node'), '');
    expect(electronAddonPath('better-sqlite3', electron, root)).toBe(join(folder, 'better_sqlite3.node'));
    expect(electronAddonPath('segfault-handler', electron, root)).toBe(join(folder, 'segfault-handler.node'));
  });

  it('names the folder after process.versions.modules, the platform and the architecture', () => {
    expect(electronNativesFolderName(electron)).toBe('electron-abi139-linux-x64');
    expect(electronNativesFolderName({ modules: '140', platform: 'darwin', arch: 'arm64' })).toBe('electron-abi140-darwin-arm64');
  });

  it('fails with the missing file, the Electron version and the command that builds it when the build is not there', () => {
    const root = tempRoot();
    // A build for another ABI does not count.
    mkdirSync(join(root, 'electron-abi136-linux-x64'));
    writeFileSync(join(root, 'electron-abi136-linux-x64', 'better_sqlite3.node'), '');
    let error: unknown;
    try {
      electronAddonPath('better-sqlite3', electron, root);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(MissingNativeAddonError);
    const message = (error as Error).message;
    expect(message).toContain(join(root, 'electron-abi139-linux-x64', 'better_sqlite3.node'));
    expect(message).toContain('Electron 38.8.6 (ABI 139, linux-x64)');
    expect(message).toContain('npm run natives:electron');
  });

  it('refuses a package that is not in the list (a Node-API one needs no Electron build)', () => {
    expect(() => electronAddonPath('sherpa-onnx-node', electron, tempRoot())).toThrow(/not an ABI-specific add-on/);
  });

  it('loads from app.asar.unpacked in the packaged app', () => {
    expect(unpackedPath('/opt/Voxdesk/resources/app.asar/natives/x/better_sqlite3.node')).toBe('/opt/Voxdesk/resources/app.asar.unpacked/natives/x/better_sqlite3.node');
    expect(unpackedPath('C:\\Voxdesk\\resources\\app.asar\\natives\\x.node')).toBe('C:\\Voxdesk\\resources\\app.asar.unpacked\\natives\\x.node');
    expect(unpackedPath('/home/me/voxdesk/natives/x.node')).toBe('/home/me/voxdesk/natives/x.node');
  });

  it('finds the natives folder at the checkout’s root, or where VOXDESK_NATIVES_DIR says', () => {
    expect(JSON.parse(readFileSync(join(appRoot(), 'package.json'), 'utf8')).name).toBe('voxdesk');
    expect(nativesRoot({})).toBe(join(appRoot(), 'natives'));
    expect(nativesRoot({ VOXDESK_NATIVES_DIR: '/tmp/elsewhere' })).toBe('/tmp/elsewhere');
  });
});

describe('the list of native add-ons', () => {
  /** Installed production packages (not dev-only per the lock file) that carry a binding.gyp or a .node file. */
  function installedNativePackages(): string[] {
    const root = appRoot();
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; hasInstallScript?: boolean }> };
    const found: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (!path || entry.dev || !existsSync(join(root, path))) continue;
      if (existsSync(join(root, path, 'binding.gyp')) || entry.hasInstallScript || hasNodeFile(join(root, path), 0)) {
        found.push(path.replace(/^.*node_modules\//, ''));
      }
    }
    return found;
  }
  function hasNodeFile(dir: string, depth: number): boolean {
    if (depth > 4) return false;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules') continue;
      if (entry.isDirectory() ? hasNodeFile(join(dir, entry.name), depth + 1) : entry.name.endsWith('.node')) return true;
    }
    return false;
  }
  const portable = (name: string): boolean =>
    Object.keys(PORTABLE_NATIVE_PACKAGES).some((known) => (known.endsWith('-') || known.endsWith('/') ? name.startsWith(known) : name === known));

  it('classifies every native package of the installed production dependencies', () => {
    const natives = installedNativePackages();
    expect(natives).toContain('better-sqlite3');
    const unclassified = natives.filter((name) => !portable(name) && !ABI_SPECIFIC_ADDONS.some((a) => a.package === name));
    expect(unclassified).toEqual([]);
  });

  it('builds per ABI exactly the add-ons that are not Node-API', () => {
    expect(ABI_SPECIFIC_ADDONS.map((a) => a.package)).toEqual(['better-sqlite3', 'segfault-handler']);
    for (const addon of ABI_SPECIFIC_ADDONS) expect(portable(addon.package)).toBe(false);
  });
});
