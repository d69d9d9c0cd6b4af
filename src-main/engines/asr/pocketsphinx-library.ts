/**
 * Debian's libpocketsphinx (package libpocketsphinx3, 0.8+5prealpha) called through koffi (FFI): the functions both
 * warm decoders use — live dictation's utterance decoder (pocketsphinx-live-decoder.ts) and the job engine's stream
 * decoder (pocketsphinx-stream-decoder.ts). A decoder is created once and kept: loading the US English model costs
 * 0.7–1 s of CPU, which the command-line program paid again for every run. Native code runs in the calling process,
 * so only processes whose crash is contained call this (a worker process, a recognizer child).
 */
import koffi, { type LibraryHandle } from 'koffi';
import { JobError } from '../../common/errors.js';
import type { PocketsphinxInstall } from './pocketsphinx-install.js';

/** PocketSphinx frames per second (its `-frate` default): word times come in frames. */
export const FRAMES_PER_SECOND = 100;

/**
 * The shared libraries (the package libpocketsphinx3 and its libsphinxbase3). `VOXDESK_LIBPOCKETSPHINX` and
 * `VOXDESK_LIBSPHINXBASE` override them (a path or a soname).
 */
function libraryNames(): { pocketsphinx: string; sphinxbase: string } {
  return {
    pocketsphinx: process.env.VOXDESK_LIBPOCKETSPHINX ?? 'libpocketsphinx.so.3',
    sphinxbase: process.env.VOXDESK_LIBSPHINXBASE ?? 'libsphinxbase.so.3',
  };
}

/** An opaque native pointer (ps_decoder_t *, ps_seg_t *, …). */
export type Pointer = unknown;

export interface PocketsphinxApi {
  init(argv: string[]): Pointer;
  startStream(ps: Pointer): number;
  startUtt(ps: Pointer): number;
  processRaw(ps: Pointer, data: Int16Array, n: number, noSearch: number, fullUtt: number): number;
  endUtt(ps: Pointer): number;
  inSpeech(ps: Pointer): number;
  segIter(ps: Pointer): Pointer;
  segNext(seg: Pointer): Pointer;
  segWord(seg: Pointer): string;
  segFrames(seg: Pointer, start: number[], end: number[]): void;
  /** The segment's posterior probability, a log in the decoder's logmath base (0 when none was computed). */
  segProb(seg: Pointer, ascr: number[], lscr: number[], lback: number[]): number;
  /** The decoder's logmath (logmath_t *), to turn its logs into probabilities. */
  logmath(ps: Pointer): Pointer;
  /** A logmath log as a probability (0..1 for a log ≤ 0). */
  logmathExp(lmath: Pointer, log: number): number;
  /** The decoder's feature computation (feat_t *): where its cepstral mean normalisation lives. */
  feat(ps: Pointer): Pointer;
  free(ps: Pointer): number;
}

const bound = new Map<string, PocketsphinxApi>();

/** Binds the libraries (once per pair of names); model_unavailable when they cannot be loaded. */
export function pocketsphinxApi(): PocketsphinxApi {
  const names = libraryNames();
  const key = `${names.sphinxbase}\n${names.pocketsphinx}`;
  const known = bound.get(key);
  if (known) return known;
  let sb: LibraryHandle;
  let ps: LibraryHandle;
  try {
    sb = koffi.load(names.sphinxbase);
    ps = koffi.load(names.pocketsphinx);
  } catch (cause) {
    throw new JobError('model_unavailable', `the PocketSphinx library could not be loaded (apt install libpocketsphinx3): ${(cause as Error).message}`, { cause });
  }
  const psArgs = ps.func('void *ps_args()');
  const parse = sb.func('void *cmd_ln_parse_r(void *inout, void *defn, int32_t argc, const char **argv, int32_t strict)');
  const psInit = ps.func('void *ps_init(void *config)');
  const api: PocketsphinxApi = {
    init: (argv) => {
      const config = parse(null, psArgs(), argv.length, argv, 1);
      if (!config) throw new Error('the PocketSphinx configuration was refused');
      return psInit(config);
    },
    startStream: ps.func('int ps_start_stream(void *ps)'),
    startUtt: ps.func('int ps_start_utt(void *ps)'),
    processRaw: ps.func('int ps_process_raw(void *ps, const int16_t *data, size_t n, int no_search, int full_utt)'),
    endUtt: ps.func('int ps_end_utt(void *ps)'),
    inSpeech: ps.func('uint8_t ps_get_in_speech(void *ps)'),
    segIter: ps.func('void *ps_seg_iter(void *ps)'),
    segNext: ps.func('void *ps_seg_next(void *seg)'),
    segWord: ps.func('const char *ps_seg_word(void *seg)'),
    segFrames: ps.func('void ps_seg_frames(void *seg, _Out_ int *sf, _Out_ int *ef)'),
    segProb: ps.func('int32_t ps_seg_prob(void *seg, _Out_ int32_t *ascr, _Out_ int32_t *lscr, _Out_ int32_t *lback)'),
    logmath: ps.func('void *ps_get_logmath(void *ps)'),
    logmathExp: sb.func('double logmath_exp(void *lmath, int logb_p)'),
    feat: ps.func('void *ps_get_feat(void *ps)'),
    free: ps.func('int ps_free(void *ps)'),
  };
  bound.set(key, api);
  return api;
}

/**
 * A decoder on the US English model with `extraArgs`; logs go nowhere. model_unavailable when the library or the
 * model cannot be loaded.
 */
export function createPocketsphinx(install: PocketsphinxInstall, extraArgs: string[] = []): { api: PocketsphinxApi; decoder: Pointer } {
  const api = pocketsphinxApi();
  const argv = ['-hmm', install.hmm, '-lm', install.lm, '-dict', install.dict, '-logfn', '/dev/null', ...extraArgs];
  let decoder: Pointer;
  try {
    decoder = api.init(argv);
  } catch (cause) {
    throw new JobError('model_unavailable', `PocketSphinx could not be started: ${(cause as Error).message}`, { cause });
  }
  if (!decoder) throw new JobError('model_unavailable', 'PocketSphinx could not load its US English model');
  return { api, decoder };
}

/** One segment of an utterance: a word, silence or filler. */
export interface SphinxRawSegment {
  token: string;
  startFrame: number;
  endFrame: number;
  /**
   * Its posterior probability (0..1): the lattice's forward-backward score of this word at this place, as
   * pocketsphinx_continuous -time yes prints it in its last column. The word's `confidence` (docs/transcripts.md).
   */
  posterior: number;
}

/** The words of the utterance just ended, times in frames as the decoder counts them, with their posteriors. */
export function segments(api: PocketsphinxApi, ps: Pointer): SphinxRawSegment[] {
  const out: SphinxRawSegment[] = [];
  const lmath = api.logmath(ps);
  for (let seg = api.segIter(ps); seg; seg = api.segNext(seg)) {
    const start = [0];
    const end = [0];
    api.segFrames(seg, start, end);
    const log = api.segProb(seg, [0], [0], [0]);
    const posterior = Math.min(1, Math.max(0, api.logmathExp(lmath, Math.min(0, log))));
    out.push({ token: api.segWord(seg), startFrame: start[0]!, endFrame: end[0]!, posterior });
  }
  return out;
}

