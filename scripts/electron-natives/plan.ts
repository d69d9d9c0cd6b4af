/**
 * What `npm run natives:electron` has to build: the installed Electron's version (from `electron/package.json`) and
 * ABI (node-abi), the per-ABI folder (src-main/platform/native-addons.ts), and for each ABI-specific add-on the version
 * installed — or nothing at all when that folder's manifest already says it holds exactly these builds. Pure apart
 * from reading package.json files, so a unit test pins it (test/unit/scripts/electron-natives-plan.test.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getAbi } from 'node-abi';
import {
  ABI_SPECIFIC_ADDONS,
  electronNativesFolderName,
  MANIFEST_FILE,
  type NativesManifest,
} from '../../src-main/platform/native-addons.js';

export interface AddonBuild {
  package: string;
  version: string;
  /** The installed package's folder (its sources are copied to build from). */
  source: string;
  /** Where npm's build puts the binary inside the package. */
  builtBinary: string;
  /** The binary's name in the per-ABI folder. */
  file: string;
}

export interface NativesPlan {
  electron: string;
  abi: string;
  platform: NodeJS.Platform;
  arch: string;
  /** The per-ABI folder. */
  folder: string;
  addons: AddonBuild[];
  /** Optional add-ons that are not installed (naudiodon did not build, so nor did segfault-handler). */
  absent: string[];
  /** The folder already holds these builds: nothing to do. */
  upToDate: boolean;
}

export interface PlanInputs {
  /** The checkout: its node_modules holds electron and the add-ons. */
  projectDir: string;
  /** Where the per-ABI folders go (native-addons.ts nativesRoot()). */
  nativesDir: string;
  platform?: NodeJS.Platform;
  arch?: string;
  /** Default: the installed electron package's version. */
  electronVersion?: string;
  /** Default: node-abi's ABI of that Electron version. */
  abi?: string;
}

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

/** The Electron version npm installed. */
export function installedElectronVersion(projectDir: string): string {
  const pkg = readJson<{ version?: string }>(join(projectDir, 'node_modules', 'electron', 'package.json'));
  if (!pkg?.version) throw new Error(`Electron is not installed in ${projectDir}/node_modules: run npm install first.`);
  return pkg.version;
}

export function planElectronNatives(inputs: PlanInputs): NativesPlan {
  const platform = inputs.platform ?? process.platform;
  const arch = inputs.arch ?? process.arch;
  const electron = inputs.electronVersion ?? installedElectronVersion(inputs.projectDir);
  const abi = inputs.abi ?? getAbi(electron, 'electron');
  const folder = join(inputs.nativesDir, electronNativesFolderName({ modules: abi, platform, arch }));
  const addons: AddonBuild[] = [];
  const absent: string[] = [];
  for (const spec of ABI_SPECIFIC_ADDONS) {
    const source = join(inputs.projectDir, 'node_modules', spec.package);
    const version = readJson<{ version?: string }>(join(source, 'package.json'))?.version;
    if (!version) {
      if (spec.optional) {
        absent.push(spec.package);
        continue;
      }
      throw new Error(`${spec.package} is not installed in ${inputs.projectDir}/node_modules: run npm install first.`);
    }
    addons.push({ package: spec.package, version, source, builtBinary: spec.builtBinary, file: spec.file });
  }
  const manifest = readJson<NativesManifest>(join(folder, MANIFEST_FILE));
  const upToDate =
    manifest !== null &&
    manifest.electron === electron &&
    manifest.abi === abi &&
    addons.every((a) => manifest.addons[a.package]?.version === a.version && existsSync(join(folder, a.file)));
  return { electron, abi, platform, arch, folder, addons, absent, upToDate };
}

/** The manifest written once every add-on of the plan is in the folder. */
export function manifestFor(plan: NativesPlan): NativesManifest {
  return {
    electron: plan.electron,
    abi: plan.abi,
    platform: plan.platform,
    arch: plan.arch,
    addons: Object.fromEntries(plan.addons.map((a) => [a.package, { version: a.version, file: a.file }])),
  };
}
