/**
 * The tiny random-weight models of ../shared/models/tiny as downloadable archives: the five shipped `.tar.bz2` files
 * (checked against their SHA256SUMS) and, for the families shipped only as folders, archives packed here in the shape
 * of the real sherpa-onnx release archives (top folder, file names). Tests serve them from a local HTTP server so
 * every family goes through download → sha256 → extraction → detection like a real package.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { requireCommand, SHARED } from './system.js';

export const TINY = join(SHARED, 'models', 'tiny');
export const TINY_ARCHIVES = join(TINY, 'archives');

export interface Archive {
  /** File name as served (the last URL segment). */
  name: string;
  body: Buffer;
  sha256: string;
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** One of the shipped archives, its bytes checked against SHA256SUMS. */
export function shippedArchive(name: string): Archive {
  const sums = readFileSync(join(TINY_ARCHIVES, 'SHA256SUMS'), 'utf8');
  const line = sums.split('\n').find((l) => l.trim().endsWith(`  ${name}`));
  if (!line) throw new Error(`${name} is not listed in ${TINY_ARCHIVES}/SHA256SUMS`);
  const body = readFileSync(join(TINY_ARCHIVES, name));
  const digest = sha256(body);
  if (digest !== line.split(/\s+/)[0]) throw new Error(`${name} does not match its SHA256SUMS line`);
  return { name, body, sha256: digest };
}

/**
 * Packs a .tar.bz2 (or .tar.gz) whose single top folder holds `files` (path inside the folder → source file or
 * folder, or the bytes), with the system tar like the release archives.
 */
export function packArchive(workDir: string, name: string, top: string, files: Record<string, string | Buffer>, compression: 'bzip2' | 'gzip' = 'bzip2'): Archive {
  requireCommand('tar');
  requireCommand('bzip2');
  const stage = join(workDir, `pack-${name}`);
  rmSync(stage, { recursive: true, force: true });
  for (const [path, source] of Object.entries(files)) {
    const target = join(stage, top, path);
    mkdirSync(dirname(target), { recursive: true });
    if (Buffer.isBuffer(source)) writeFileSync(target, source);
    else cpSync(source, target, { recursive: true });
  }
  const out = join(workDir, name);
  execFileSync('tar', [compression === 'gzip' ? '-czf' : '-cjf', out, '--sort=name', '--owner=0', '--group=0', '-C', stage, top]);
  rmSync(stage, { recursive: true, force: true });
  const body = readFileSync(out);
  return { name, body, sha256: sha256(body) };
}

/**
 * The tiny VITS model marked as a Piper export: its metadata `comment` rewritten in place (same length, so the
 * protobuf stays valid). Its graph is still the lexicon VITS one, so only layout and catalogue checks use it.
 */
export function piperMarkedVits(): Buffer {
  const model = readFileSync(join(TINY, 'tiny-vits', 'model.onnx'));
  const from = Buffer.from('tiny random-weight test model');
  const to = Buffer.from('tiny random-weight piper tts.');
  const at = model.indexOf(from);
  if (at < 0 || to.length !== from.length) throw new Error('tiny-vits/model.onnx has no comment to rewrite');
  const out = Buffer.from(model);
  to.copy(out, at);
  return out;
}

/** Archives in the shape of the real release archives for the families ../shared ships only as folders. */
export function packedArchives(workDir: string): Record<'whisper' | 'nemoCtc' | 'vits' | 'piper' | 'notPiper', Archive> {
  const piperFiles = (model: string | Buffer): Record<string, string | Buffer> => ({
    'en_US-lessac-medium.onnx': model,
    'en_US-lessac-medium.onnx.json': Buffer.from(JSON.stringify({ audio: { sample_rate: 22050 }, num_speakers: 1, espeak: { voice: 'en-us' } })),
    'tokens.txt': join(TINY, 'tiny-vits', 'tokens.txt'),
    'espeak-ng-data': join(TINY, 'tiny-kokoro', 'espeak-ng-data'),
    MODEL_CARD: Buffer.from('tiny random-weight test voice\n'),
  });
  return {
    whisper: packArchive(workDir, 'sherpa-onnx-whisper-tiny.en.tar.bz2', 'sherpa-onnx-whisper-tiny.en', {
      'tiny.en-encoder.onnx': join(TINY, 'tiny-whisper', 'encoder.onnx'),
      'tiny.en-decoder.onnx': join(TINY, 'tiny-whisper', 'decoder.onnx'),
      'tiny.en-tokens.txt': join(TINY, 'tiny-whisper', 'tokens.txt'),
    }),
    nemoCtc: packArchive(workDir, 'sherpa-onnx-nemo-ctc-en-conformer-small.tar.bz2', 'sherpa-onnx-nemo-ctc-en-conformer-small', {
      'model.onnx': join(TINY, 'tiny-nemo-ctc', 'model.onnx'),
      'tokens.txt': join(TINY, 'tiny-nemo-ctc', 'tokens.txt'),
    }),
    vits: packArchive(workDir, 'vits-ljs.tar.bz2', 'vits-ljs', {
      'vits-ljs.onnx': join(TINY, 'tiny-vits', 'model.onnx'),
      'lexicon.txt': join(TINY, 'tiny-vits', 'lexicon.txt'),
      'tokens.txt': join(TINY, 'tiny-vits', 'tokens.txt'),
    }),
    piper: packArchive(workDir, 'vits-piper-en_US-lessac-medium.tar.bz2', 'vits-piper-en_US-lessac-medium', piperFiles(piperMarkedVits())),
    notPiper: packArchive(workDir, 'vits-piper-en_US-not-piper.tar.bz2', 'vits-piper-en_US-not-piper', piperFiles(join(TINY, 'tiny-vits', 'model.onnx'))),
  };
}
