/**
 * PocketSphinx as a warm in-process decoder for live dictation: Debian's libpocketsphinx called through koffi (FFI).
 * Loading the model costs 0.7 s of CPU before the first word, which live utterances cannot wait for: the decoder loads
 * once per recognizer process and decodes each VAD utterance whole (`full_utt`, so cepstral mean normalisation uses the utterance itself,
 * as the program does on a file). Runs only inside the recognizer child process: a crash in native code ends that
 * process, not the service.
 *
 * One decoder serves every stream of the process (it costs ~95 MB resident), so each utterance starts a new stream
 * (`ps_start_stream`): the front end's noise tracking otherwise carries over from whatever the decoder heard last, and
 * a meeting's other side changed the microphone's next words (jfk.wav's "and all my fellow americans" became "and
 * while my fellow americans" after four seconds of another speaker). Every utterance is now decoded as by a freshly
 * loaded decoder, whoever spoke before it (test/integration/engines/asr/pocketsphinx-live-decoder.test.ts).
 */
import type { TranscriptWord } from '../../common/api-types.js';
import { JobError } from '../../common/errors.js';
import type { PocketsphinxInstall } from './pocketsphinx-install.js';
import { createPocketsphinx, FRAMES_PER_SECOND, segments, type PocketsphinxApi, type Pointer } from './pocketsphinx-library.js';
import { confidenceOf, dictionaryWord, NON_WORD } from './pocketsphinx-output.js';
import { POCKETSPHINX_NO_PROCESS, POCKETSPHINX_NO_UTTERANCE, POCKETSPHINX_RELEASED } from '../../common/error-messages.js';
import { floatToInt16 } from '../audio/pcm.js';

export class PocketsphinxLiveDecoder {
  private readonly api: PocketsphinxApi;
  private decoder: Pointer;

  constructor(install: PocketsphinxInstall) {
    ({ api: this.api, decoder: this.decoder } = createPocketsphinx(install, ['-remove_silence', 'no']));
  }

  /** Recognises one utterance (16 kHz) as a freshly loaded decoder would; word times from its first sample. */
  decode(samples: Float32Array): { text: string; words: TranscriptWord[] } {
    const a = this.api;
    const ps = this.decoder;
    if (!ps) throw new JobError('engine_failed', POCKETSPHINX_RELEASED);
    if (a.startStream(ps) < 0 || a.startUtt(ps) < 0) throw new JobError('engine_failed', POCKETSPHINX_NO_UTTERANCE);
    const pcm = floatToInt16(samples);
    if (pcm.length > 0 && a.processRaw(ps, pcm, pcm.length, 0, 1) < 0) {
      a.endUtt(ps);
      throw new JobError('engine_failed', POCKETSPHINX_NO_PROCESS);
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
