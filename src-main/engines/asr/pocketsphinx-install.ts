/**
 * Where Debian's PocketSphinx lives: the `pocketsphinx_continuous` program (package pocketsphinx) and the US English
 * model (package pocketsphinx-en-us). Both must be present for the engine to be offered.
 */
import { existsSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { findExecutable, findExecutableAsync } from '../audio/decode.js';

/** Model folder of pocketsphinx-en-us. `VOXDESK_POCKETSPHINX_MODEL_DIR` overrides. Default /usr/share/pocketsphinx/model/en-us. */
export function pocketsphinxModelDir(): string {
  return process.env.VOXDESK_POCKETSPHINX_MODEL_DIR ?? '/usr/share/pocketsphinx/model/en-us';
}

export interface PocketsphinxInstall {
  program: string;
  hmm: string;
  lm: string;
  dict: string;
}

export const POCKETSPHINX_MISSING = 'PocketSphinx is not installed: apt install pocketsphinx pocketsphinx-en-us';

/** The program and model files, or null when any is missing. `VOXDESK_POCKETSPHINX` overrides the program (or `none`). */
export function findPocketsphinx(): PocketsphinxInstall | null {
  const program = findExecutable('pocketsphinx_continuous', process.env.VOXDESK_POCKETSPHINX);
  const install = modelFiles();
  if (!program || !existsSync(join(install.hmm, 'mdef')) || !existsSync(install.lm) || !existsSync(install.dict)) return null;
  return { program, ...install };
}

/** findPocketsphinx without blocking the thread: the checks run on libuv's pool. */
export async function findPocketsphinxAsync(): Promise<PocketsphinxInstall | null> {
  const program = await findExecutableAsync('pocketsphinx_continuous', process.env.VOXDESK_POCKETSPHINX);
  const install = modelFiles();
  const present = (path: string) => access(path).then(() => true, () => false);
  if (!program) return null;
  const files = await Promise.all([present(join(install.hmm, 'mdef')), present(install.lm), present(install.dict)]);
  return files.every(Boolean) ? { program, ...install } : null;
}

function modelFiles(): Omit<PocketsphinxInstall, 'program'> {
  const dir = pocketsphinxModelDir();
  return { hmm: join(dir, 'en-us'), lm: join(dir, 'en-us.lm.bin'), dict: join(dir, 'cmudict-en-us.dict') };
}
