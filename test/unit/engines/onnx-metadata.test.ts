/** ONNX metadata read without loading the model: the tiny sherpa-onnx exports, an appended entry, non-ONNX files. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { onnxMetadataOrEmpty, readOnnxMetadata } from '../../../src-main/engines/onnx-metadata.js';
import { SHARED } from '../../helpers/system.js';

const TINY = join(SHARED, 'models', 'tiny');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-onnx-meta-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A ModelProto field 14 entry (StringStringEntryProto) as protobuf bytes. */
function entry(key: string, value: string): Buffer {
  const k = Buffer.from(key);
  const v = Buffer.from(value);
  const inner = Buffer.concat([Buffer.from([0x0a, k.length]), k, Buffer.from([0x12, v.length]), v]);
  return Buffer.concat([Buffer.from([0x72, inner.length]), inner]);
}

describe('readOnnxMetadata', () => {
  it('reads what sherpa-onnx exports declare', () => {
    expect(readOnnxMetadata(join(TINY, 'tiny-whisper', 'encoder.onnx'))).toMatchObject({
      all_language_codes: 'en,zh,de,es,ru,ko,fr,ja,pt,it',
      is_multilingual: '1',
    });
    expect(readOnnxMetadata(join(TINY, 'tiny-streaming-zipformer', 'encoder-epoch-99-avg-1-chunk-16-left-128.onnx'))).toMatchObject({
      model_type: 'zipformer2',
      decode_chunk_len: '32',
      T: '39',
    });
    expect(readOnnxMetadata(join(TINY, 'tiny-kokoro', 'model.int8.onnx'))).toMatchObject({ n_speakers: '11', sample_rate: '24000', voice: 'en-us' });
    expect(readOnnxMetadata(join(TINY, 'tiny-vits', 'model.onnx'))).toEqual({
      model_type: 'vits',
      comment: 'tiny random-weight test model',
      language: 'English',
      add_blank: '1',
      n_speakers: '2',
      sample_rate: '22050',
      punctuation: '; : , . ! ? -',
    });
    expect(readOnnxMetadata(join(SHARED, 'models', 'silero_vad_v5.onnx'))).toEqual({});
  });

  it('a later entry with the same key wins, as in onnxruntime', () => {
    const path = join(dir, 'm.onnx');
    writeFileSync(path, Buffer.concat([readFileSync(join(TINY, 'tiny-vits', 'model.onnx')), entry('comment', 'piper'), entry('voice', 'en-us')]));
    expect(readOnnxMetadata(path)).toMatchObject({ comment: 'piper', voice: 'en-us', n_speakers: '2' });
  });

  it('refuses files that are not ONNX, and onnxMetadataOrEmpty answers {} for them', () => {
    const text = join(TINY, 'tiny-vits', 'tokens.txt');
    expect(() => readOnnxMetadata(text)).toThrow(/is not an ONNX model/);
    const cut = join(dir, 'cut.onnx');
    writeFileSync(cut, readFileSync(join(TINY, 'tiny-vits', 'model.onnx')).subarray(0, 500));
    expect(() => readOnnxMetadata(cut)).toThrow(/truncated|not an ONNX model/);
    expect(onnxMetadataOrEmpty(text)).toEqual({});
    expect(onnxMetadataOrEmpty(join(dir, 'missing.onnx'))).toEqual({});
  });
});
