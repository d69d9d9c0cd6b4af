/**
 * The warm PocketSphinx decoder's two ways of starting a recording afresh (pocketsphinx-stream-decoder.ts): with this
 * Debian build's CMN layout it puts the normalisation back (pocketsphinx-cmn.ts); with a layout it does not know it
 * loads a fresh decoder per recording. Both must give a recording exactly the words a freshly loaded decoder gives,
 * whatever the decoder heard before. Real libpocketsphinx, real model, real speech.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { snapshotCmn, type CmnSnapshot } from '../../../../src-main/engines/asr/pocketsphinx-cmn.js';
import { findPocketsphinx } from '../../../../src-main/engines/asr/pocketsphinx-install.js';
import type { Pointer } from '../../../../src-main/engines/asr/pocketsphinx-library.js';
import type { SphinxUtterance } from '../../../../src-main/engines/asr/pocketsphinx-output.js';
import { PocketsphinxStreamDecoder } from '../../../../src-main/engines/asr/pocketsphinx-stream-decoder.js';
import { ffmpeg, makeTempDir } from '../../../helpers/audio-fixtures.js';
import { requireCommand, requireFile, SHARED } from '../../../helpers/system.js';
import { scaled } from '../../../helpers/time-scale.js';

requireCommand('pocketsphinx_continuous', 'pocketsphinx');
requireFile('/usr/share/pocketsphinx/model/en-us/en-us.lm.bin', 'pocketsphinx-en-us');

const temp = makeTempDir('voxdesk-sphinx-stream-');
const decoders: PocketsphinxStreamDecoder[] = [];
afterAll(() => {
  for (const decoder of decoders) decoder.dispose();
  temp.cleanup();
});

/** A recording as 16 kHz mono PCM16 samples. */
function pcmOf(file: string, name: string): Int16Array {
  const raw = join(temp.dir, `${name}.raw`);
  ffmpeg(['-i', file, '-f', 's16le', '-ac', '1', '-ar', '16000', raw]);
  const bytes = readFileSync(raw);
  return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
}

/** Decodes one recording fed in blocks of a quarter second, as decoded audio arrives in a job. */
function decode(decoder: PocketsphinxStreamDecoder, pcm: Int16Array): SphinxUtterance[] {
  const utterances: SphinxUtterance[] = [];
  decoder.begin();
  for (let at = 0; at < pcm.length; at += 4000) utterances.push(...decoder.feed(pcm.subarray(at, at + 4000)));
  const last = decoder.finish();
  if (last) utterances.push(last);
  return utterances;
}

function newDecoder(snapshot?: (feat: Pointer) => CmnSnapshot | null): PocketsphinxStreamDecoder {
  const install = findPocketsphinx();
  if (!install) throw new Error('PocketSphinx is not installed: apt install pocketsphinx pocketsphinx-en-us');
  const decoder = new PocketsphinxStreamDecoder(install, snapshot);
  decoders.push(decoder);
  return decoder;
}

describe('the warm PocketSphinx decoder starts every recording afresh', () => {
  const jfk = pcmOf(join(SHARED, 'audio/jfk.wav'), 'jfk');
  const other = pcmOf(join(SHARED, 'audio/hifitts-6097', readFileSync(join(SHARED, 'audio/hifitts-6097/refs.tsv'), 'utf8').split('\t')[0]!), 'other');

  it('with the CMN layout of the supported build (Debian 5prealpha), and with a layout it does not know', { timeout: scaled(300_000) }, () => {
    const fresh = decode(newDecoder(), jfk);
    expect(fresh.map((u) => u.text).join(' ')).toMatch(/country/i);

    // This build's layout is recognised: the decoder keeps its model and puts the normalisation back.
    let saved = 0;
    const warm = newDecoder((feat) => {
      const snapshot = snapshotCmn(feat);
      if (snapshot) saved++;
      return snapshot;
    });
    decode(warm, other);
    expect(decode(warm, jfk)).toEqual(fresh);
    expect(saved).toBe(1); // read once at load, never reloaded

    // A build whose layout is not recognised: a fresh decoder for each recording after the first, same words.
    let loads = 0;
    const fallback = newDecoder(() => {
      loads++;
      return null;
    });
    decode(fallback, other);
    expect(decode(fallback, jfk)).toEqual(fresh);
    decode(fallback, other);
    expect(decode(fallback, jfk)).toEqual(fresh);
    expect(loads).toBe(4); // the first load and one per recording after it
  });
});

describe('word confidence (issue 29.6)', () => {
  it('gives every word of real speech its posterior, 0..1, some sure and some not', { timeout: scaled(300_000) }, () => {
    const words = decode(newDecoder(), pcmOf(join(SHARED, 'audio/jfk.wav'), 'jfk-confidence')).flatMap((u) => u.words ?? []);
    expect(words.length).toBeGreaterThan(10);
    for (const word of words) {
      expect(word.confidence, word.word).toBeGreaterThanOrEqual(0);
      expect(word.confidence, word.word).toBeLessThanOrEqual(1);
    }
    // The scores say something: some words are sure, others not (PocketSphinx mishears much of jfk.wav).
    expect(words.some((w) => w.confidence! > 0.9)).toBe(true);
    expect(words.some((w) => w.confidence! < 0.1)).toBe(true);
  });
});
