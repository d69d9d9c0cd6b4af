/**
 * What is particular to NeMo Canary (sherpa-onnx's OfflineCanaryModel, 1.13.8): it is told its source and target
 * language rather than detecting one — sherpa-onnx maps only en, es, de and fr (Canary 180M flash's four) and reads
 * anything else as English, so those are the languages a Canary package offers, and `language: auto` transcribes as
 * English, as the spec says of C-flash — and sherpa-onnx ends the process when tokens.txt does not have exactly the
 * encoder's `vocab_size` lines, so a package is checked for that before it is served.
 */
import { readFileSync, statSync } from 'node:fs';
import { onnxMetadataOrEmpty } from '../onnx-metadata.js';

/** The languages sherpa-onnx 1.13.8 can tell a Canary model (offline-recognizer-canary-impl.h PostInit). */
export const CANARY_LANGUAGES = ['en', 'es', 'de', 'fr'] as const;

const checked = new Map<string, string | null>();

/**
 * Why sherpa-onnx would refuse (by exiting) the Canary model in `files`, or null when it loads: its encoder must say
 * it is an EncDecMultiTaskModel and tokens.txt must have `vocab_size` lines. Read once per pair of files.
 */
export function canaryProblem(files: Record<string, string>): string | null {
  const key = `${files.encoder}\n${files.tokens}`;
  if (checked.has(key)) return checked.get(key)!;
  let problem: string | null = null;
  try {
    const meta = onnxMetadataOrEmpty(files.encoder!);
    const lines = readFileSync(files.tokens!, 'utf8').split('\n').filter((line) => line.trim() !== '').length;
    if (meta.model_type !== 'EncDecMultiTaskModel') {
      problem = `its encoder is not a NeMo Canary export (model_type ${JSON.stringify(meta.model_type ?? null)}, expected "EncDecMultiTaskModel")`;
    } else if (String(lines) !== meta.vocab_size) {
      problem = `tokens.txt has ${lines} lines but the encoder's vocab_size is ${meta.vocab_size ?? 'missing'}`;
    }
    if (statSync(files.encoder!).isFile()) checked.set(key, problem);
  } catch (error) {
    problem = `its files cannot be read (${(error as Error).message})`;
  }
  return problem;
}
