/**
 * Native add-ons under two runtimes, Node and Electron, from one checkout (docs/desktop-app.md, "Native modules").
 *
 * npm builds every add-on for the Node that ran `npm install` (ABI 115 for Node 20). Add-ons written against Node-API
 * load in any runtime of a high enough Node-API version, Electron included. The others are compiled against V8 and
 * Node's internals and load only in the runtime whose ABI (`process.versions.modules`) they were built for: Electron
 * 38 is ABI 139. Rebuilding them in node_modules would break `npm test` / `npm start` in the same checkout, so their
 * Electron builds live in a folder of their own, `natives/electron-abi<ABI>-<platform>-<arch>/`, made by
 * `scripts/electron-natives.ts` (`npm run app` and `npm run dist` run it first), and Electron loads them from there.
 *
 * This module is that folder's one definition: the add-ons that need it, how each runtime finds a binary, and the
 * error when the Electron build is missing. It sits on the platform floor, below the store, because better-sqlite3 is
 * the store's; the player (naudiodon → segfault-handler), the built-in models and the build script use it too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A native add-on built against V8/NAN: it needs a build per runtime ABI. */
export interface AbiSpecificAddon {
  /** The npm package. */
  package: string;
  /** Where npm's build puts the binary, relative to the package folder. */
  builtBinary: string;
  /** The binary's file name in the per-ABI folder. */
  file: string;
  /** Absent when the package is missing is fine (an optional dependency that did not build). */
  optional: boolean;
  /** Why it is here (who loads it). */
  why: string;
}

/**
 * Every add-on of the product that is not Node-API. test/unit/platform/native-addons.test.ts walks the installed
 * production dependencies and fails on a native package that is in neither list, so a new one cannot slip past.
 */
export const ABI_SPECIFIC_ADDONS: readonly AbiSpecificAddon[] = [
  {
    package: 'better-sqlite3',
    builtBinary: 'build/Release/better_sqlite3.node',
    file: 'better_sqlite3.node',
    optional: false,
    why: 'the job store (store/database.ts), loaded through its nativeBinding option',
  },
  {
    package: 'segfault-handler',
    builtBinary: 'build/Release/segfault-handler.node',
    file: 'segfault-handler.node',
    optional: true,
    why: 'naudiodon requires it at load (NAN); the player hands it the Electron build (app/player/naudiodon-loader.ts)',
  },
];

/**
 * Native packages that load in Electron as npm built them, and why. Package names or prefixes (a trailing `-` or `/`
 * stands for the platform packages that carry the binary).
 */
export const PORTABLE_NATIVE_PACKAGES: Readonly<Record<string, string>> = {
  'sherpa-onnx-node': 'Node-API (node-addon-api); the binary is in the platform package',
  'sherpa-onnx-': 'Node-API platform packages of sherpa-onnx-node',
  koffi: 'Node-API',
  '@koromix/koffi-': 'Node-API platform packages of koffi',
  '@napi-rs/keyring': 'Node-API (napi-rs)',
  '@napi-rs/keyring-': 'Node-API platform packages of @napi-rs/keyring',
  naudiodon: 'Node-API (node_api.h); its dependency segfault-handler is not',
  'uiohook-napi': 'Node-API (prebuilds/<platform>/uiohook-napi.node, loaded by node-gyp-build): the dictate-anywhere keyboard hook',
  esbuild: 'not an add-on: a program tsx starts as a child process',
};

/** The runtime facts that decide where a binary comes from. */
export interface RuntimeIdentity {
  /** `process.versions.electron`; undefined under Node. */
  electron: string | undefined;
  /** `process.versions.modules`: the ABI. */
  modules: string;
  platform: string;
  arch: string;
}

export function currentRuntime(): RuntimeIdentity {
  return { electron: process.versions.electron, modules: process.versions.modules, platform: process.platform, arch: process.arch };
}

/** The per-ABI folder's name: one folder per Electron ABI, platform and architecture. */
export function electronNativesFolderName(runtime: Pick<RuntimeIdentity, 'modules' | 'platform' | 'arch'>): string {
  return `electron-abi${runtime.modules}-${runtime.platform}-${runtime.arch}`;
}

/** What the build script writes beside the binaries; the script skips a build whose manifest still matches. */
export interface NativesManifest {
  electron: string;
  abi: string;
  platform: string;
  arch: string;
  /** package → the version built and the file. */
  addons: Record<string, { version: string; file: string }>;
}
export const MANIFEST_FILE = 'manifest.json';

/**
 * The Electron build of an add-on is not where it must be. The message says which file, for which Electron, and the
 * command that makes it.
 */
export class MissingNativeAddonError extends Error {
  readonly path: string;
  constructor(addon: string, path: string, runtime: RuntimeIdentity) {
    super(
      `${addon} has no build for Electron ${runtime.electron} (ABI ${runtime.modules}, ${runtime.platform}-${runtime.arch}): ` +
        `${path} is missing. Run "npm run natives:electron" in the Voxdesk folder (npm run app and npm run dist run it ` +
        'first), or reinstall the app.',
    );
    this.name = 'MissingNativeAddonError';
    this.path = path;
  }
}

let appRootCache: string | undefined;

/**
 * The folder of Voxdesk's package.json, found upwards from this file: the checkout (from src-main/platform or
 * dist/src-main/platform) or, in the packaged app, `resources/app.asar`.
 */
export function appRoot(): string {
  if (appRootCache) return appRootCache;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && isVoxdeskPackage(manifest)) return (appRootCache = dir);
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Voxdesk's package.json was not found above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

function isVoxdeskPackage(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'voxdesk';
  } catch {
    return false;
  }
}

/**
 * Where the per-ABI folders live: `VOXDESK_NATIVES_DIR` when set, else `<app root>/natives`. In the packaged app that
 * is inside app.asar, whose native files electron-builder unpacks (asarUnpack): a binary is loaded from the unpacked
 * copy.
 */
export function nativesRoot(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.VOXDESK_NATIVES_DIR || join(appRoot(), 'natives'));
}

/** `…/app.asar/…` → `…/app.asar.unpacked/…`: the OS cannot map a library out of an archive. */
export function unpackedPath(path: string): string {
  return path.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

/**
 * The binary this runtime must load for an ABI-specific add-on: null under Node (the one npm built, found by the
 * package itself), the per-ABI folder's under Electron. Throws MissingNativeAddonError when Electron's is not there.
 */
export function electronAddonPath(addon: string, runtime: RuntimeIdentity = currentRuntime(), root: string = nativesRoot()): string | null {
  if (!runtime.electron) return null;
  const spec = ABI_SPECIFIC_ADDONS.find((a) => a.package === addon);
  if (!spec) throw new Error(`${addon} is not an ABI-specific add-on (platform/native-addons.ts)`);
  const path = unpackedPath(join(root, electronNativesFolderName(runtime), spec.file));
  if (!existsSync(path)) throw new MissingNativeAddonError(addon, path, runtime);
  return path;
}
