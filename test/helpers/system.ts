/**
 * System dependencies of tests (Debian packages installed by .ci/system-packages.sh). A missing one fails the
 * test with a clear message — never a silent skip.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export function requireCommand(command: string, packageName = command): string {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(`${command} is not installed (Debian package ${packageName}): run bash .ci/system-packages.sh`);
  }
}

export function requireFile(path: string, packageName: string): string {
  if (!existsSync(path)) throw new Error(`${path} is missing (Debian package ${packageName}): run bash .ci/system-packages.sh`);
  return path;
}

/** ../shared relative to the project root: reference audio and small real models (tests only). */
export const SHARED = new URL('../../../shared/', import.meta.url).pathname;
