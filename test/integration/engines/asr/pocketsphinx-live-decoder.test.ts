/**
 * The live PocketSphinx decoder (pocketsphinx-live-decoder.ts) is one per recognizer process and decodes the
 * utterances of every stream, a meeting's two sides interleaved. Each utterance must get the words a freshly loaded
 * decoder gives it, whatever the decoder heard before: the front end's noise tracking carried over and the other
 * side's speech changed the microphone's words (a meeting-capture test failed on it under load). Real
 * libpocketsphinx, real model, real speech: jfk.wav and two recordings of another speaker (HiFi-TTS) that
 * each changed the first words before.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { findPocketsphinx } from '../../../../src-main/engines/asr/pocketsphinx-install.js';
import { PocketsphinxLiveDecoder } from '../../../../src-main/engines/asr/pocketsphinx-live-decoder.js';
import { decodeWav } from '../../../../src-main/engines/audio/wav.js';
import { JFK_WAV } from '../../../helpers/dictation-fixtures.js';
import { requireFile, SHARED } from '../../../helpers/system.js';
import { scaled } from '../../../helpers/time-scale.js';

requireFile('/usr/share/pocketsphinx/model/en-us/en-us.lm.bin', 'pocketsphinx-en-us');

const decoder = new PocketsphinxLiveDecoder(findPocketsphinx()!);
afterAll(() => decoder.dispose());

const seconds = (samples: Float32Array, from: number, to: number): Float32Array => samples.subarray(from * 16_000, to * 16_000);
const jfk = decodeWav(readFileSync(JFK_WAV)).channels[0]!;
const hifi = join(SHARED, 'audio/hifitts-6097');
const others = readdirSync(hifi).filter((f) => f.endsWith('.wav')).sort().filter((_, i) => i === 0 || i === 3).map((f) => decodeWav(readFileSync(join(hifi, f))).channels[0]!);

// Fifteen decodes of about 0.8 s of CPU each.
it('gives an utterance the same words whatever the other side said just before it', { timeout: scaled(120_000) }, () => {
  const utterances = [seconds(jfk, 0, 3), seconds(jfk, 3.1, 6.6), seconds(jfk, 6.6, 11)];
  const alone = utterances.map((u) => decoder.decode(u).text);
  expect(alone.join(' ')).toContain('fellow americans');
  for (const other of others) {
    const interleaved = utterances.map((u) => {
      decoder.decode(seconds(other, 0, 4));
      return decoder.decode(u).text;
    });
    expect(interleaved).toEqual(alone);
  }
});
