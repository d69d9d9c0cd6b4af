/**
 * Tiny random-weight models made by the repository's script (scripts/tiny-models/make_tiny_models.py, with Debian's
 * python3-onnx and python3-numpy) for the families ../shared/models/tiny does not have. They are generated once per
 * version of the script into node_modules/.cache/voxdesk-tiny-models/<script hash>/, so tests pay for it once; a
 * missing python3-onnx fails the test with the package to install.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './service.js';

const SCRIPT = join(ROOT, 'scripts', 'tiny-models', 'make_tiny_models.py');
/** The audio products' models (stem separation): scripts/tiny-models/make_tiny_product_models.py. */
export const PRODUCT_MODELS_SCRIPT = join(ROOT, 'scripts', 'tiny-models', 'make_tiny_product_models.py');

/** Debian's interpreter first: it is the one python3-onnx and python3-numpy are installed for. */
function python(): string {
  return existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
}

/** The folder of a generated model (`whisper-turbo`, …; `spleeter-2stems`, `uvr-mdx` from PRODUCT_MODELS_SCRIPT), made on first use. */
export function generatedModel(name: string, script = SCRIPT): string {
  const hash = createHash('sha256').update(readFileSync(script)).digest('hex').slice(0, 16);
  const cache = join(ROOT, 'node_modules', '.cache', 'voxdesk-tiny-models', hash);
  const dir = join(cache, name);
  if (existsSync(dir)) return dir;
  const staging = join(cache, `.making-${name}-${process.pid}`);
  mkdirSync(staging, { recursive: true });
  try {
    execFileSync(python(), [script, staging, name], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '');
    const hint = /No module named '(onnx|numpy)'/.test(stderr) ? ' (Debian packages python3-onnx and python3-numpy: run bash .ci/system-packages.sh)' : '';
    throw new Error(`making the tiny ${name} model failed${hint}: ${stderr.trim() || (error as Error).message}`);
  }
  // Another test process may have made it meanwhile: either copy is the same bytes.
  if (!existsSync(dir)) renameSync(join(staging, name), dir);
  rmSync(staging, { recursive: true, force: true });
  return dir;
}
