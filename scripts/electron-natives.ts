/**
 * `npm run natives:electron` (run first by `npm run app` and `npm run dist`): builds the ABI-specific native add-ons
 * for the installed Electron into natives/electron-abi<ABI>-<platform>-<arch>/, where the app loads them from
 * (src-main/platform/native-addons.ts). Does nothing when that folder already holds builds of the installed versions.
 *
 *   node --import tsx scripts/electron-natives.ts            build when needed
 *   node --import tsx scripts/electron-natives.ts --force    build again
 *   node --import tsx scripts/electron-natives.ts --plan     print what would be built (JSON) and stop
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nativesRoot } from '../src-main/platform/native-addons.js';
import { buildElectronNatives } from './electron-natives/build.js';
import { planElectronNatives } from './electron-natives/plan.js';

const projectDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const unknown = [...args].filter((a) => !['--force', '--plan'].includes(a));
if (unknown.length) {
  process.stderr.write(`natives: unknown option ${unknown.join(' ')} (use --force or --plan)\n`);
  process.exit(2);
}

try {
  const plan = planElectronNatives({ projectDir, nativesDir: nativesRoot() });
  if (args.has('--plan')) {
    process.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
  } else if (plan.upToDate && !args.has('--force')) {
    process.stderr.write(`natives: ${plan.folder} holds the builds for Electron ${plan.electron} (ABI ${plan.abi})\n`);
  } else {
    await buildElectronNatives(plan);
  }
} catch (error) {
  process.stderr.write(`natives: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
