/**
 * PocketSphinx as a warm in-process decoder for live dictation: Debian's libpocketsphinx called through koffi (FFI).
 * Loading the model costs 0.7 s of CPU before the first word, which live utterances cannot wait for: the decoder loads
 * once per recognizer process and decodes each VAD utterance whole (`full_utt`, so cepstral mean normalisation uses the utterance itself,
 * as the program does on a file). Runs only inside the recognizer child process: a crash in native code ends that
 * process, not the service.
 */
import type { TranscriptWord } from '../../common/api-types.js';
import { JobError } from '../../common/errors.js';
import type { PocketsphinxInstall } from './pocketsphinx-install.js';
import { createPocketsphinx, FRAMES_PER_SECOND, segments, type PocketsphinxApi, type Pointer } from './pocketsphinx-library.js';
import { confidenceOf, dictionaryWord, NON_WORD } from './pocketsphinx-output.js';
import { floatToInt16 } from '../audio/pcm.js';

export class PocketsphinxLiveDecoder {
  private readonly api: PocketsphinxApi;
  private decoder: Pointer;

  constructor(install: PocketsphinxInstall) {
    ({ api: this.api, decoder: this.decoder } = createPocketsphinx(install, ['-remove_silence', 'no']));
  }

  /** Recognises one utterance (16 kHz); word times from its first sample. */
  decode(samples: Float32Array): { text: string; words: TranscriptWord[] } {
    const a = this.api;
    const ps = this.decoder;
    if (!ps) throw new JobError('engine_failed', 'the PocketSphinx decoder was released');
    if (a.startUtt(ps) < 0) throw new JobError('engine_failed', 'PocketSphinx could not start an utterance');
    const pcm = floatToInt16(samples);
    if (pcm.length > 0 && a.processRaw(ps, pcm, pcm.length, 0, 1) < 0) {
      a.endUtt(ps);
      throw new JobError('engine_failed', 'PocketSphinx could not process the audio');
    }
    a.endUtt(ps);
    const words: TranscriptWord[] = segments(a, ps)
      .filter((s) => !NON_WORD.test(s.token))
      .map((s) => ({ word: dictionaryWord(s.token), start: s.startFrame / FRAMES_PER_SECOND, end: (s.endFrame + 1) / FRAMES_PER_SECOND, ...confidenceOf(s.posterior) }));
    return { text: words.map((w) => w.word).join(' '), words };
  }

  dispose(): void {
    if (!this.decoder) return;
    this.api.free(this.decoder);
    this.decoder = null;
  }
}
