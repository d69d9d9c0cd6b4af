/**
 * The built-in sample `voxdesk models test` uses: a short English sentence, and the same sentence spoken by eSpeak NG
 * as a 16 kHz recording shipped in resources/samples/model-test.wav (made by scripts/make-model-test-sample.ts).
 * Found next to the sources in a checkout and next to the compiled files in a build; never ../shared.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the sample recording says, and what a voice model is asked to speak. */
export const MODEL_TEST_SENTENCE = 'Voxdesk checks this model with a short sentence about the quiet river.';

/** Path of the sample recording: src-main/cli → <root>/resources, dist/src-main/cli → <root>/resources. */
export function modelTestRecording(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, '..', '..', 'resources', 'samples', 'model-test.wav'), join(here, '..', '..', '..', 'resources', 'samples', 'model-test.wav')];
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error(`the built-in sample recording is missing (looked in ${candidates.join(', ')}); reinstall Voxdesk`);
  return found;
}
