/**
 * The native add-ons for both runtimes, end to end as far as this machine allows (Electron's binary and headers
 * cannot be downloaded here: docs/desktop-app.md, "Native modules"):
 * - scripts/electron-natives builds an add-on through @electron/rebuild and node-gyp into the per-ABI folder,
 *   leaving npm's build in node_modules as it was. Electron's headers are replaced by this Node's own, served from
 *   a local server at the headers URL, and its version and ABI stand in for Electron's.
 * - A process that says it is Electron (`process.versions.electron`) loads better-sqlite3 and segfault-handler from
 *   that folder; plain Node loads npm's builds; a missing Electron build is a clear error.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoot, electronNativesFolderName } from '../../../src-main/platform/native-addons.js';
import { scaled } from '../../helpers/time-scale.js';

const child = join(dirname(fileURLToPath(import.meta.url)), 'natives-child.ts');
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const PRETEND_ELECTRON = 'data:text/javascript,process.versions.electron="38.8.6"';
const version = process.versions.node;
const folderName = electronNativesFolderName({ modules: process.versions.modules, platform: process.platform, arch: process.arch });
const npmSegfaultHandler = join(appRoot(), 'node_modules', 'segfault-handler', 'build', 'Release', 'segfault-handler.node');
const npmSqlite = join(appRoot(), 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

let work: string;
let server: Server;
let headerURL: string;

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

function run(args: string[], env: NodeJS.ProcessEnv, execArgv: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...execArgv, '--import', tsx, child, ...args], { env: { ...process.env, ...env }, cwd: appRoot(), timeout: scaled(240_000) }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'voxdesk-natives-build-'));
  // This Node's headers, laid out as a release's headers tarball (node-v<version>/include/node/…).
  const headers = join(dirname(dirname(process.execPath)), 'include', 'node');
  if (!existsSync(join(headers, 'node_api.h'))) throw new Error(`this Node's headers are not at ${headers}; the test builds against them`);
  const dist = join(work, 'dist', `v${version}`);
  mkdirSync(dist, { recursive: true });
  mkdirSync(join(work, 'stage', `node-v${version}`, 'include'), { recursive: true });
  execFileSync('cp', ['-R', headers, join(work, 'stage', `node-v${version}`, 'include', 'node')]);
  const tarball = join(dist, `node-v${version}-headers.tar.gz`);
  execFileSync('tar', ['-czf', tarball, '-C', join(work, 'stage'), `node-v${version}`]);
  writeFileSync(join(dist, 'SHASUMS256.txt'), `${sha256(tarball)}  node-v${version}-headers.tar.gz\n`);
  server = createServer((req, res) => {
    const file = join(work, 'dist', decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    if (!file.startsWith(join(work, 'dist')) || !existsSync(file) || !statSync(file).isFile()) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-length': statSync(file).size });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  headerURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('natives for both runtimes', () => {
  it('builds into the per-ABI folder with a manifest, leaves npm’s build untouched, and each runtime loads its own', async () => {
    const before = sha256(npmSegfaultHandler);
    const natives = join(work, 'natives');
    // node-gyp keeps downloaded headers under the home folder: a private one.
    const built = await run(['build', natives, headerURL], { HOME: join(work, 'home'), USERPROFILE: join(work, 'home') });
    expect(built.stderr).toContain(`ready in ${join(natives, folderName)}`);
    expect(built.code).toBe(0);

    const folder = join(natives, folderName);
    expect(readdirSync(natives).sort()).toEqual([folderName]); // the staging project is gone
    expect(JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8'))).toEqual({
      electron: version,
      abi: process.versions.modules,
      platform: process.platform,
      arch: process.arch,
      addons: { 'segfault-handler': { version: '1.3.0', file: 'segfault-handler.node' } },
    });
    expect(sha256(npmSegfaultHandler)).toBe(before);

    // "Electron" (this Node's ABI, so the binaries can load): both add-ons come from the folder.
    copyFileSync(npmSqlite, join(folder, 'better_sqlite3.node'));
    const electron = await run(['load'], { VOXDESK_NATIVES_DIR: natives }, ['--import', PRETEND_ELECTRON]);
    expect(electron.code, electron.stdout + electron.stderr).toBe(0);
    const electronLoaded = JSON.parse(electron.stdout) as string[];
    expect(electronLoaded).toContain(join(folder, 'better_sqlite3.node'));
    expect(electronLoaded).toContain(join(folder, 'segfault-handler.node'));
    expect(electronLoaded).not.toContain(npmSqlite);
    expect(electronLoaded).not.toContain(npmSegfaultHandler);

    // Node: npm's builds, whatever the folder holds.
    const node = await run(['load'], { VOXDESK_NATIVES_DIR: natives });
    expect(node.code, node.stdout + node.stderr).toBe(0);
    const nodeLoaded = JSON.parse(node.stdout) as string[];
    expect(nodeLoaded).toContain(npmSqlite);
    expect(nodeLoaded).toContain(npmSegfaultHandler);
    expect(nodeLoaded.some((file) => file.startsWith(natives))).toBe(false);
  });

  it('says which build is missing and how to make it when Electron starts without them', async () => {
    const empty = join(work, 'empty-natives');
    mkdirSync(empty, { recursive: true });
    const result = await run(['load'], { VOXDESK_NATIVES_DIR: empty }, ['--import', PRETEND_ELECTRON]);
    expect(result.code).toBe(3);
    const error = JSON.parse(result.stdout) as { name: string; message: string };
    expect(error.name).toBe('MissingNativeAddonError');
    expect(error.message).toContain(join(empty, folderName, 'better_sqlite3.node'));
    expect(error.message).toContain('Electron 38.8.6');
    expect(error.message).toContain('npm run natives:electron');
  });
});
