/**
 * Builds the plan's add-ons for Electron into the per-ABI folder, leaving node_modules (npm's Node builds) untouched.
 *
 * @electron/rebuild rebuilds packages where they are, so the add-ons are first copied (sources only, without npm's
 * build/) into a staging project of their own beside the folder, whose node_modules links their dependencies
 * (bindings, prebuild-install, nan, …) back to the checkout's. @electron/rebuild then runs there, and only there
 * (`projectRootPath` stops it from walking up to the checkout's node_modules): prebuild-install fetches a published
 * Electron build when there is one, else node-gyp compiles against Electron's headers. The binaries are copied into
 * the folder, the manifest written last (the folder counts as built only then), and the staging project removed.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, copyFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { rebuild } from '@electron/rebuild';
import { MANIFEST_FILE } from '../../src-main/platform/native-addons.js';
import { manifestFor, type NativesPlan } from './plan.js';

export interface BuildOptions {
  /** Where Electron's headers come from. Default @electron/rebuild's (https://www.electronjs.org/headers). */
  headerURL?: string;
  /** Progress lines. Default: stderr. */
  log?: (line: string) => void;
}

/** The folder of package `name` as Node would find it from `fromDir` (walking up through node_modules folders). */
export function findPackageDir(name: string, fromDir: string): string | null {
  let dir = fromDir;
  for (;;) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** Copies each add-on's sources into `<staging>/node_modules` and links its dependencies; returns the staging dir. */
export function stageAddons(plan: NativesPlan, staging: string): string {
  rmSync(staging, { recursive: true, force: true });
  const modules = join(staging, 'node_modules');
  mkdirSync(modules, { recursive: true });
  const dependencies: Record<string, string> = {};
  for (const addon of plan.addons) {
    dependencies[addon.package] = addon.version;
    const target = join(modules, addon.package);
    // npm's build/ (Node's binary and objects) and nested node_modules stay behind: built anew, linked below.
    cpSync(addon.source, target, {
      recursive: true,
      filter: (from) => {
        const rel = from.slice(addon.source.length).replace(/\\/g, '/');
        return rel !== '/build' && rel !== '/node_modules';
      },
    });
    const pkg = JSON.parse(readFileSync(join(addon.source, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dep of Object.keys(pkg.dependencies ?? {})) {
      const link = join(modules, dep);
      if (existsSync(link) || plan.addons.some((a) => a.package === dep)) continue;
      const found = findPackageDir(dep, addon.source);
      if (!found) throw new Error(`${addon.package} depends on ${dep}, which is not installed: run npm install first.`);
      mkdirSync(dirname(link), { recursive: true });
      // A junction on Windows needs no privilege; elsewhere the type is ignored.
      symlinkSync(found, link, 'junction');
    }
  }
  writeFileSync(join(staging, 'package.json'), JSON.stringify({ name: 'voxdesk-electron-natives', private: true, dependencies }, null, 2));
  return staging;
}

export async function buildElectronNatives(plan: NativesPlan, options: BuildOptions = {}): Promise<void> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (plan.addons.length === 0) throw new Error('No native add-on to build: run npm install first.');
  const staging = join(dirname(plan.folder), `.staging-${basename(plan.folder)}`);
  try {
    stageAddons(plan, staging);
    log(`natives: building ${plan.addons.map((a) => `${a.package} ${a.version}`).join(', ')} for Electron ${plan.electron} (ABI ${plan.abi}, ${plan.platform}-${plan.arch})`);
    // @electron/rebuild forks node-gyp's worker with this process's flags, and this script runs with tsx's loader
    // (`--import tsx`), which the worker — plain JS, started in the staged package's folder — neither needs nor finds.
    const ownFlags = process.execArgv;
    process.execArgv = [];
    const run = rebuild({
      buildPath: staging,
      projectRootPath: staging,
      electronVersion: plan.electron,
      forceABI: Number(plan.abi),
      platform: plan.platform,
      arch: plan.arch,
      onlyModules: plan.addons.map((a) => a.package),
      force: true,
      mode: 'sequential',
      ...(options.headerURL ? { headerURL: options.headerURL } : {}),
    });
    run.lifecycle.on('module-found', (name: string) => log(`natives: ${name}…`));
    try {
      await run;
    } catch (error) {
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}. Building for Electron needs either a published Electron build of ` +
          'the add-on (prebuild-install fetches it from GitHub) or Electron\'s headers (from https://www.electronjs.org/headers) ' +
          'and a C++ toolchain (python3, make and a compiler; Visual Studio Build Tools on Windows).',
        { cause: error },
      );
    } finally {
      process.execArgv = ownFlags;
    }
    // Written from scratch, the manifest last: a half-built folder is never taken for a built one.
    rmSync(plan.folder, { recursive: true, force: true });
    mkdirSync(plan.folder, { recursive: true });
    for (const addon of plan.addons) {
      const built = join(staging, 'node_modules', addon.package, addon.builtBinary);
      if (!existsSync(built)) throw new Error(`${addon.package} was rebuilt but ${built} is not there.`);
      copyFileSync(built, join(plan.folder, addon.file));
    }
    writeFileSync(join(plan.folder, MANIFEST_FILE), `${JSON.stringify(manifestFor(plan), null, 2)}\n`);
    log(`natives: ready in ${plan.folder}`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
