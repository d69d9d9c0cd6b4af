/** Family detection from sherpa-onnx folder layouts: the real tiny models in ../shared plus synthetic layouts. */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { familyCapability } from '../../../../src-main/models/family-engines.js';
import { detectLayout, detectLayoutIn } from '../../../../src-main/models/layouts/detect-layout.js';
import { diskListing } from '../../../../src-main/models/layouts/folder-listing.js';
import { SHARED } from '../../../helpers/system.js';
import { PackageError } from '../../../../src-main/common/errors.js';

const TINY = join(SHARED, 'models', 'tiny');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-fam-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function folder(files: string[], dirs: string[] = [], tokens = 'a 0\nb 1\n'): string {
  for (const d of dirs) mkdirSync(join(dir, d), { recursive: true });
  for (const f of files) writeFileSync(join(dir, f), f.endsWith('tokens.txt') ? tokens : 'x');
  return dir;
}

describe('detectLayout', () => {
  it('detects the shared tiny NeMo CTC model', async () => {
    expect(await detectLayout(join(TINY, 'tiny-nemo-ctc'))).toEqual({ family: 'nemo-ctc', files: { model: 'model.onnx', tokens: 'tokens.txt' } });
  });

  it('detects the shared tiny Whisper model', async () => {
    expect(await detectLayout(join(TINY, 'tiny-whisper'))).toEqual({
      family: 'whisper',
      files: { encoder: 'encoder.onnx', decoder: 'decoder.onnx', tokens: 'tokens.txt' },
      languages: ['en', 'zh', 'de', 'es', 'ru', 'ko', 'fr', 'ja', 'pt', 'it'],
    });
  });

  it('detects the shared tiny lexicon VITS model', async () => {
    expect(await detectLayout(join(TINY, 'tiny-vits'))).toEqual({
      family: 'vits',
      files: { model: 'model.onnx', tokens: 'tokens.txt', lexicon: 'lexicon.txt' },
    });
  });

  it('detects a Whisper release layout and prefers the int8 files', async () => {
    folder(['tiny.en-encoder.onnx', 'tiny.en-encoder.int8.onnx', 'tiny.en-decoder.onnx', 'tiny.en-decoder.int8.onnx', 'tiny.en-tokens.txt'], ['test_wavs']);
    expect(await detectLayout(dir)).toEqual({
      family: 'whisper',
      files: { encoder: 'tiny.en-encoder.int8.onnx', decoder: 'tiny.en-decoder.int8.onnx', tokens: 'tiny.en-tokens.txt' },
    });
  });

  it('detects a NeMo transducer (Parakeet) layout', async () => {
    folder(['encoder.int8.onnx', 'decoder.int8.onnx', 'joiner.int8.onnx', 'tokens.txt']);
    expect((await detectLayout(dir)).family).toBe('nemo-transducer');
    expect((await detectLayout(dir)).files.joiner).toBe('joiner.int8.onnx');
  });

  it('detects Moonshine', async () => {
    folder(['preprocess.onnx', 'encode.int8.onnx', 'uncached_decode.int8.onnx', 'cached_decode.int8.onnx', 'tokens.txt']);
    expect(await detectLayout(dir)).toEqual({
      family: 'moonshine',
      files: {
        preprocessor: 'preprocess.onnx',
        encoder: 'encode.int8.onnx',
        uncachedDecoder: 'uncached_decode.int8.onnx',
        cachedDecoder: 'cached_decode.int8.onnx',
        tokens: 'tokens.txt',
      },
    });
  });

  it('tells SenseVoice from NeMo CTC by its tokens', async () => {
    folder(['model.int8.onnx', 'tokens.txt'], [], '<unk> 0\n<|zh|> 3\n<|en|> 4\n<|withitn|> 14\n');
    expect((await detectLayout(dir)).family).toBe('sense-voice');
  });

  it('detects Piper (espeak-ng-data) and Kokoro (voices.bin) voices inside a single top folder', async () => {
    mkdirSync(join(dir, 'vits-piper-en_US-x', 'espeak-ng-data'), { recursive: true });
    for (const f of ['en_US-x.onnx', 'en_US-x.onnx.json', 'tokens.txt']) writeFileSync(join(dir, 'vits-piper-en_US-x', f), 'x');
    expect(await detectLayout(dir)).toEqual({
      family: 'piper',
      files: { model: 'vits-piper-en_US-x/en_US-x.onnx', tokens: 'vits-piper-en_US-x/tokens.txt', dataDir: 'vits-piper-en_US-x/espeak-ng-data' },
    });
    writeFileSync(join(dir, 'vits-piper-en_US-x', 'voices.bin'), 'x');
    expect((await detectLayout(dir)).family).toBe('kokoro');
  });

  it('detects single-file support models and the GTCRN denoiser by name', async () => {
    writeFileSync(join(dir, 'silero_vad.onnx'), 'x');
    expect(await detectLayout(dir)).toEqual({ family: 'silero-vad', files: { model: 'silero_vad.onnx' } });
    rmSync(join(dir, 'silero_vad.onnx'));
    writeFileSync(join(dir, 'gtcrn_simple.onnx'), 'x');
    expect((await detectLayout(dir)).family).toBe('gtcrn');
    rmSync(join(dir, 'gtcrn_simple.onnx'));
    writeFileSync(join(dir, 'nemo_en_titanet_small.onnx'), 'x');
    expect((await detectLayout(dir)).family).toBe('speaker-embedding');
  });

  it('checks a folder against the family given and names what is missing', async () => {
    folder(['model.onnx', 'tokens.txt']);
    await expect(detectLayout(dir, 'whisper')).rejects.toThrow(/does not hold a whisper model: needs \*encoder\*\.onnx/);
    expect((await detectLayout(dir, 'nemo-ctc')).family).toBe('nemo-ctc');
  });

  it('explains an unrecognised folder and suggests --family', async () => {
    folder(['readme.md', 'weights.bin']);
    await expect(detectLayout(dir)).rejects.toThrow(PackageError);
    await expect(detectLayout(dir)).rejects.toThrow(/cannot tell which model family .*no \.onnx model file.*pass --family.*found: .*readme\.md/);
    await expect(detectLayout(join(dir, 'nope'))).rejects.toThrow(/is not a folder/);
  });

  it('tells a streaming transducer from an offline one by its encoder\'s metadata', async () => {
    expect(await detectLayout(join(TINY, 'tiny-streaming-zipformer'))).toEqual({
      family: 'streaming-transducer',
      files: {
        encoder: 'encoder-epoch-99-avg-1-chunk-16-left-128.onnx',
        decoder: 'decoder-epoch-99-avg-1-chunk-16-left-128.onnx',
        joiner: 'joiner-epoch-99-avg-1-chunk-16-left-128.onnx',
        tokens: 'tokens.txt',
      },
    });
    expect((await detectLayout(join(TINY, 'tiny-nemo-tdt'))).family).toBe('nemo-transducer');
    await expect(detectLayout(join(TINY, 'tiny-streaming-zipformer'), 'nemo-transducer')).rejects.toThrow(/offline \(non-streaming\) encoder/);
    await expect(detectLayout(join(TINY, 'tiny-nemo-tdt'), 'streaming-transducer')).rejects.toThrow(/streaming encoder/);
    // Without readable metadata the release names decide.
    folder(['encoder-epoch-99-avg-1-chunk-16-left-128.onnx', 'decoder-epoch-99-avg-1-chunk-16-left-128.onnx', 'joiner-epoch-99-avg-1-chunk-16-left-128.onnx', 'tokens.txt']);
    expect((await detectLayout(dir)).family).toBe('streaming-transducer');
  });

  it('takes a Whisper model\'s languages from its metadata', async () => {
    expect((await detectLayout(join(TINY, 'tiny-whisper'))).languages).toEqual(['en', 'zh', 'de', 'es', 'ru', 'ko', 'fr', 'ja', 'pt', 'it']);
  });

  it('refuses a Piper layout whose model is not a Piper export (sherpa-onnx would exit the process)', async () => {
    mkdirSync(join(dir, 'espeak-ng-data'));
    cpSync(join(TINY, 'tiny-vits', 'model.onnx'), join(dir, 'voice.onnx'));
    cpSync(join(TINY, 'tiny-vits', 'tokens.txt'), join(dir, 'tokens.txt'));
    await expect(detectLayout(dir)).rejects.toThrow(/voice\.onnx has espeak-ng-data but no lexicon\.txt.*comment: "tiny random-weight test model"/);
    const model = readFileSync(join(TINY, 'tiny-vits', 'model.onnx'));
    writeFileSync(join(dir, 'voice.onnx'), Buffer.from(model.toString('latin1').replace('tiny random-weight test model', 'tiny random-weight piper tts.'), 'latin1'));
    expect(await detectLayout(dir)).toEqual({ family: 'piper', files: { model: 'voice.onnx', tokens: 'tokens.txt', dataDir: 'espeak-ng-data' } });
    // With a lexicon it is a lexicon VITS voice that also has espeak data.
    cpSync(join(TINY, 'tiny-vits', 'model.onnx'), join(dir, 'voice.onnx'));
    cpSync(join(TINY, 'tiny-vits', 'lexicon.txt'), join(dir, 'lexicon.txt'));
    expect(await detectLayout(dir)).toEqual({ family: 'vits', files: { model: 'voice.onnx', tokens: 'tokens.txt', lexicon: 'lexicon.txt', dataDir: 'espeak-ng-data' } });
    await expect(detectLayout(dir, 'piper')).rejects.toThrow(/does not hold a piper model/);
  });

  it('recognises a single-file model by its metadata whatever its name', async () => {
    cpSync(join(TINY, 'tiny-speaker-embedding.onnx'), join(dir, 'model.onnx'));
    expect(await detectLayout(dir)).toEqual({ family: 'speaker-embedding', files: { model: 'model.onnx' } });
    rmSync(join(dir, 'model.onnx'));
    cpSync(join(SHARED, 'models', 'pyannote-segmentation-3-0.int8.onnx'), join(dir, 'speaker-model.onnx'));
    expect((await detectLayout(dir)).family).toBe('pyannote-segmentation');
    await expect(detectLayout(dir, 'speaker-embedding')).rejects.toThrow(PackageError);
  });

  it('over a listing (an import), names what is missing and never the folder\'s files', async () => {
    folder(['private-notes.txt', 'alpha.onnx', 'beta.onnx']);
    let message = '';
    try {
      await detectLayoutIn(diskListing(dir));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('2 .onnx file(s) but no tokens.txt');
    expect(message).not.toMatch(/private-notes|alpha|beta/);
    await expect(detectLayoutIn(diskListing(dir), 'kokoro')).rejects.toThrow(/does not hold a kokoro model: needs \*\.onnx, voices\.bin/);
  });

  it('maps families to catalogue capabilities', async () => {
    expect(familyCapability('whisper')).toBe('asr');
    expect(familyCapability('kokoro')).toBe('tts');
    expect(familyCapability('gtcrn')).toBe('noise_reduction');
    expect(familyCapability('pyannote-segmentation')).toBe('support');
  });
});
