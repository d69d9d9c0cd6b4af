/**
 * Puts a warm PocketSphinx decoder's cepstral mean normalisation (CMN) back to where the model left it, so that a
 * recording decoded by a decoder that has already heard others gets exactly the words a freshly loaded decoder (the
 * command-line program) gives. PocketSphinx's live CMN keeps adapting to everything it hears and no public function
 * of 5prealpha resets it (`ps_start_stream` resets only the voice activity detector and the frame count), so the
 * state is read right after loading and written back before each recording.
 *
 * The state is a small struct of sphinxbase (cmn_t: mean, variance and running-sum vectors of the cepstrum's length,
 * and a frame count) reached through feat_t. Its layout is checked before use (the vector length must equal the
 * cepstrum size feat_t states, 13 for the US English model); when it does not match — another libsphinxbase build —
 * `snapshotCmn` returns null and the caller loads a fresh decoder per recording instead (slower, still exact).
 */
import koffi from 'koffi';
import type { Pointer } from './pocketsphinx-library.js';

/** Byte offsets on 64-bit Linux (sphinxbase 5prealpha feat.h / cmn.h). */
const FEAT_CEPSIZE = 16;
const FEAT_CMN_STRUCT = 88;
const CMN_MEAN = 0;
const CMN_VAR = 8;
const CMN_SUM = 16;
const CMN_NFRAME = 24;
const CMN_VECLEN = 28;

export interface CmnSnapshot {
  /** Writes the saved state back. */
  restore(): void;
}

function vector(pointer: Pointer, length: number): { read(): number[]; write(values: number[]): void } | null {
  if (!pointer) return null;
  const type = koffi.array('float', length, 'Array');
  return {
    read: () => koffi.decode(pointer, type) as number[],
    write: (values) => koffi.encode(pointer, type, values),
  };
}

/** Saves the CMN state of `feat` (ps_get_feat); null when the layout is not the one expected. */
export function snapshotCmn(feat: Pointer): CmnSnapshot | null {
  if (process.arch !== 'x64' && process.arch !== 'arm64') return null;
  if (!feat) return null;
  const cepsize = koffi.decode(feat, FEAT_CEPSIZE, 'int32_t') as number;
  const cmn = koffi.decode(feat, FEAT_CMN_STRUCT, 'void *') as Pointer;
  if (!cmn || cepsize <= 0 || cepsize > 64) return null;
  const veclen = koffi.decode(cmn, CMN_VECLEN, 'int32_t') as number;
  if (veclen !== cepsize) return null;
  const mean = vector(koffi.decode(cmn, CMN_MEAN, 'void *'), veclen);
  const sum = vector(koffi.decode(cmn, CMN_SUM, 'void *'), veclen);
  const variance = vector(koffi.decode(cmn, CMN_VAR, 'void *'), veclen);
  if (!mean || !sum) return null;
  const saved = { mean: mean.read(), sum: sum.read(), variance: variance?.read() ?? null, frames: koffi.decode(cmn, CMN_NFRAME, 'int32_t') as number };
  return {
    restore() {
      mean.write(saved.mean);
      sum.write(saved.sum);
      if (variance && saved.variance) variance.write(saved.variance);
      koffi.encode(cmn, CMN_NFRAME, 'int32_t', saved.frames);
    },
  };
}
