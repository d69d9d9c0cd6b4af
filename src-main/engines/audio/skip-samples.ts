/**
 * Drops the first `count` samples of a block stream: a resumed transcription decodes the recording again from the
 * start (decoding is cheap and exact; seeking into compressed audio would not give the same samples) and hands only
 * the audio after its checkpoint to VAD and the recognizer.
 */
export async function* skipSamples(blocks: AsyncIterable<Float32Array>, count: number): AsyncGenerator<Float32Array> {
  let left = count;
  for await (const block of blocks) {
    if (left >= block.length) {
      left -= block.length;
      continue;
    }
    yield left > 0 ? block.subarray(left) : block;
    left = 0;
  }
}
