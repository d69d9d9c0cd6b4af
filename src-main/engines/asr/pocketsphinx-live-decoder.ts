/**
 * PocketSphinx as a warm in-process decoder for live dictation: Debian's libpocketsphinx called through koffi (FFI).
 * The command-line program the job engine uses (pocketsphinx-engine.ts) reloads its models for every run (0.7 s of
 * CPU before the first word), which live utterances cannot wait for; here the decoder loads once per recognizer
 * process and decodes each VAD utterance whole (`full_utt`, so cepstral mean normalisation uses the utterance itself,
 * as the program does on a file). Runs only inside the recognizer child process: a crash in native code ends that
 * process, not the service.
 */
import koffi, { type LibraryHandle } from 'koffi';
import type { TranscriptWord } from '../../common/api-types.js';
import { JobError } from '../../common/errors.js';
import type { PocketsphinxInstall } from './pocketsphinx-install.js';
import { dictionaryWord, NON_WORD } from './pocketsphinx-output.js';

/** PocketSphinx frames per second (its `-frate` default): word times come in frames. */
const FRAMES_PER_SECOND = 100;

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

interface Api {
  init(argv: string[]): unknown;
  startUtt(ps: unknown): number;
  processRaw(ps: unknown, data: Int16Array, n: number, noSearch: number, fullUtt: number): number;
  endUtt(ps: unknown): number;
  hyp(ps: unknown, score: number[]): string | null;
  segIter(ps: unknown): unknown;
  segNext(seg: unknown): unknown;
  segWord(seg: unknown): string;
  segFrames(seg: unknown, start: number[], end: number[]): void;
  free(ps: unknown): number;
}

let api: Api | undefined;

function bind(): Api {
  if (api) return api;
  const names = libraryNames();
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
  api = {
    init: (argv) => {
      const config = parse(null, psArgs(), argv.length, argv, 1);
      if (!config) throw new Error('the PocketSphinx configuration was refused');
      return psInit(config);
    },
    startUtt: ps.func('int ps_start_utt(void *ps)'),
    processRaw: ps.func('int ps_process_raw(void *ps, const int16_t *data, size_t n, int no_search, int full_utt)'),
    endUtt: ps.func('int ps_end_utt(void *ps)'),
    hyp: ps.func('const char *ps_get_hyp(void *ps, _Out_ int32_t *score)'),
    segIter: ps.func('void *ps_seg_iter(void *ps)'),
    segNext: ps.func('void *ps_seg_next(void *seg)'),
    segWord: ps.func('const char *ps_seg_word(void *seg)'),
    segFrames: ps.func('void ps_seg_frames(void *seg, _Out_ int *sf, _Out_ int *ef)'),
    free: ps.func('int ps_free(void *ps)'),
  };
  return api;
}

function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.round(samples[i]! * 32768);
    out[i] = s > 32767 ? 32767 : s < -32768 ? -32768 : s;
  }
  return out;
}

export class PocketsphinxLiveDecoder {
  private readonly api: Api;
  private decoder: unknown;

  constructor(install: PocketsphinxInstall) {
    this.api = bind();
    const argv = ['-hmm', install.hmm, '-lm', install.lm, '-dict', install.dict, '-logfn', '/dev/null', '-remove_silence', 'no'];
    try {
      this.decoder = this.api.init(argv);
    } catch (cause) {
      throw new JobError('model_unavailable', `PocketSphinx could not be started: ${(cause as Error).message}`, { cause });
    }
    if (!this.decoder) throw new JobError('model_unavailable', 'PocketSphinx could not load its US English model');
  }

  /** Recognises one utterance (16 kHz); word times from its first sample. */
  decode(samples: Float32Array): { text: string; words: TranscriptWord[] } {
    const a = this.api;
    const ps = this.decoder;
    if (!ps) throw new JobError('engine_failed', 'the PocketSphinx decoder was released');
    if (a.startUtt(ps) < 0) throw new JobError('engine_failed', 'PocketSphinx could not start an utterance');
    const pcm = toInt16(samples);
    if (pcm.length > 0 && a.processRaw(ps, pcm, pcm.length, 0, 1) < 0) {
      a.endUtt(ps);
      throw new JobError('engine_failed', 'PocketSphinx could not process the audio');
    }
    a.endUtt(ps);
    const words: TranscriptWord[] = [];
    for (let seg = a.segIter(ps); seg; seg = a.segNext(seg)) {
      const token = a.segWord(seg);
      if (NON_WORD.test(token)) continue;
      const start = [0];
      const end = [0];
      a.segFrames(seg, start, end);
      words.push({ word: dictionaryWord(token), start: start[0]! / FRAMES_PER_SECOND, end: (end[0]! + 1) / FRAMES_PER_SECOND });
    }
    return { text: words.map((w) => w.word).join(' '), words };
  }

  dispose(): void {
    if (!this.decoder) return;
    this.api.free(this.decoder);
    this.decoder = null;
  }
}
