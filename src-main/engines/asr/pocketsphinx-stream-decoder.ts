/**
 * PocketSphinx kept warm for speech-to-text jobs: one decoder, loaded once per worker process, takes recording after
 * recording. It segments a recording exactly as `pocketsphinx_continuous -infile` does (the program the engine ran
 * before, once per job, paying 0.7–1 s of CPU to load the model each time): samples go in in blocks of 2,048, and an
 * utterance ends when the decoder's voice activity detector leaves speech. Before each recording the detector, the
 * frame count and the cepstral mean normalisation are put back to their loaded state (pocketsphinx-cmn.ts), so every
 * recording gets the words the program gave it, whatever the decoder heard before.
 *
 * The calls are synchronous native code in the calling (worker) process: a crash there ends the worker, and the job
 * engine retries the job from its last committed utterance on a fresh worker.
 */
import { JobError } from '../../common/errors.js';
import type { PocketsphinxInstall } from './pocketsphinx-install.js';
import { snapshotCmn, type CmnSnapshot } from './pocketsphinx-cmn.js';
import { createPocketsphinx, FRAMES_PER_SECOND, segments, type PocketsphinxApi, type Pointer } from './pocketsphinx-library.js';
import { utteranceFromSegments, type SphinxUtterance } from './pocketsphinx-output.js';
import { POCKETSPHINX_NO_PROCESS, POCKETSPHINX_NO_UTTERANCE, POCKETSPHINX_RELEASED } from '../../common/error-messages.js';

/** Samples per `ps_process_raw` call, as the program reads them (continuous.c): the segmentation depends on it. */
export const SPHINX_BLOCK = 2048;

export class PocketsphinxStreamDecoder {
  private api: PocketsphinxApi;
  private decoder: Pointer;
  private cmn: CmnSnapshot | null;
  /** A decoder that has heard audio, and whose state cannot be reset, is replaced before the next recording. */
  private used = false;
  private inUtterance = false;
  private speaking = false;
  private readonly pending = new Int16Array(SPHINX_BLOCK);
  private pendingLength = 0;

  /**
   * `snapshot` reads the loaded CMN state (pocketsphinx-cmn.ts); it answers null for a library build whose layout is
   * not the one expected, and tests pass a function answering null to run that path (a fresh decoder per recording).
   */
  constructor(
    private readonly install: PocketsphinxInstall,
    private readonly snapshot: (feat: Pointer) => CmnSnapshot | null = snapshotCmn,
  ) {
    ({ api: this.api, decoder: this.decoder } = createPocketsphinx(install));
    this.cmn = this.snapshot(this.api.feat(this.decoder));
  }

  /** Starts a recording (its times start at 0); an unfinished previous one is dropped. */
  begin(): void {
    const a = this.api;
    if (this.inUtterance) a.endUtt(this.live());
    if (this.used && !this.cmn) {
      a.free(this.live());
      ({ api: this.api, decoder: this.decoder } = createPocketsphinx(this.install));
      this.cmn = this.snapshot(this.api.feat(this.decoder));
    }
    this.cmn?.restore();
    if (this.api.startStream(this.live()) < 0 || this.api.startUtt(this.live()) < 0) {
      throw new JobError('engine_failed', 'PocketSphinx could not start a recording');
    }
    this.used = true;
    this.inUtterance = true;
    this.speaking = false;
    this.pendingLength = 0;
  }

  /** Feeds samples (16 kHz PCM16); returns the utterances they closed, in order. */
  feed(pcm: Int16Array): SphinxUtterance[] {
    const closed: SphinxUtterance[] = [];
    let offset = 0;
    if (this.pendingLength > 0) {
      const take = Math.min(SPHINX_BLOCK - this.pendingLength, pcm.length);
      this.pending.set(pcm.subarray(0, take), this.pendingLength);
      this.pendingLength += take;
      offset = take;
      if (this.pendingLength < SPHINX_BLOCK) return closed;
      this.block(this.pending, closed);
      this.pendingLength = 0;
    }
    for (; offset + SPHINX_BLOCK <= pcm.length; offset += SPHINX_BLOCK) this.block(pcm.subarray(offset, offset + SPHINX_BLOCK), closed);
    if (offset < pcm.length) {
      this.pending.set(pcm.subarray(offset));
      this.pendingLength = pcm.length - offset;
    }
    return closed;
  }

  /** The input ended: the utterance it ended in, if it holds words. */
  finish(): SphinxUtterance | null {
    const closed: SphinxUtterance[] = [];
    if (this.pendingLength > 0) this.block(this.pending.subarray(0, this.pendingLength), closed);
    this.pendingLength = 0;
    const a = this.api;
    const ps = this.live();
    this.inUtterance = false;
    a.endUtt(ps);
    // The program prints the last utterance only when speech had started in it.
    if (this.speaking) closed.push(...this.utterance(ps));
    this.speaking = false;
    return closed[closed.length - 1] ?? null;
  }

  dispose(): void {
    if (!this.decoder) return;
    if (this.inUtterance) this.api.endUtt(this.decoder);
    this.api.free(this.decoder);
    this.decoder = null;
  }

  private block(samples: Int16Array, closed: SphinxUtterance[]): void {
    const a = this.api;
    const ps = this.live();
    if (a.processRaw(ps, samples, samples.length, 0, 0) < 0) throw new JobError('engine_failed', POCKETSPHINX_NO_PROCESS);
    const inSpeech = a.inSpeech(ps) !== 0;
    if (inSpeech) this.speaking = true;
    else if (this.speaking) {
      a.endUtt(ps);
      closed.push(...this.utterance(ps));
      if (a.startUtt(ps) < 0) throw new JobError('engine_failed', POCKETSPHINX_NO_UTTERANCE);
      this.speaking = false;
    }
  }

  private utterance(ps: Pointer): SphinxUtterance[] {
    const piece = utteranceFromSegments(
      segments(this.api, ps).map((s) => ({ token: s.token, start: s.startFrame / FRAMES_PER_SECOND, end: s.endFrame / FRAMES_PER_SECOND, posterior: s.posterior })),
    );
    return piece ? [piece] : [];
  }

  private live(): Pointer {
    if (!this.decoder) throw new JobError('engine_failed', POCKETSPHINX_RELEASED);
    return this.decoder;
  }
}
