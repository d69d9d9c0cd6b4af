/**
 * Child of electron-natives.test.ts: `build DIR HEADER_URL` builds segfault-handler with scripts/electron-natives for
 * this Node's own version and ABI (standing in for Electron's, whose headers cannot be downloaded here) into DIR;
 * `load` opens a database and loads naudiodon as the app does, then prints the native binaries this process mapped
 * (or the error, with exit code 3).
 */
import { appRoot } from '../../../src-main/platform/native-addons.js';

const [command, dir, headerURL] = process.argv.slice(2);
if (command === 'build') {
  const { planElectronNatives } = await import('../../../scripts/electron-natives/plan.js');
  const { buildElectronNatives } = await import('../../../scripts/electron-natives/build.js');
  const plan = planElectronNatives({ projectDir: appRoot(), nativesDir: dir!, electronVersion: process.versions.node, abi: process.versions.modules });
  // better-sqlite3's SQLite takes minutes to compile on two cores; segfault-handler shows the same path in seconds.
  plan.addons = plan.addons.filter((addon) => addon.package === 'segfault-handler');
  await buildElectronNatives(plan, { headerURL: headerURL!, log: (line) => process.stderr.write(`${line}\n`) });
} else if (command === 'load') {
  try {
    const { openDatabase } = await import('../../../src-main/store/database.js');
    const { loadNaudiodon } = await import('../../../src-main/app/player/naudiodon-loader.js');
    openDatabase(':memory:').close();
    loadNaudiodon();
    const report = process.report.getReport() as unknown as { sharedObjects: string[] };
    process.stdout.write(JSON.stringify(report.sharedObjects.filter((file) => file.endsWith('.node'))));
  } catch (error) {
    process.stdout.write(JSON.stringify({ name: (error as Error).name, message: (error as Error).message }));
    process.exit(3);
  }
}
