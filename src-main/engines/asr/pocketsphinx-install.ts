/**
 * Where Debian's PocketSphinx lives: the `pocketsphinx_continuous` program (package pocketsphinx) and the US English
 * model (package pocketsphinx-en-us). Both must be present for the engine to be offered.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findExecutable } from '../audio/decode.js';

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
  const dir = pocketsphinxModelDir();
  const install = { hmm: join(dir, 'en-us'), lm: join(dir, 'en-us.lm.bin'), dict: join(dir, 'cmudict-en-us.dict') };
  if (!program || !existsSync(join(install.hmm, 'mdef')) || !existsSync(install.lm) || !existsSync(install.dict)) return null;
  return { program, ...install };
}
