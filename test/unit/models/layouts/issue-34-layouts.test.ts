/**
 * Detection of the families issue 34 added, on the tiny models in their exact layouts made by
 * scripts/tiny-models/make_tiny_models.py: Kokoro v1.0 (with its lexicons, refused without them), Kitten told apart
 * from Kokoro by its metadata, Matcha by its vocoder, Coqui's character-level VITS without a lexicon, DPDFNet by its
 * metadata, and the spoken-language identification model (named only; an English-only Whisper refused).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectLayout } from '../../../../src-main/models/layouts/detect-layout.js';
import { generatedModel } from '../../../helpers/generated-models.js';
import { SHARED } from '../../../helpers/system.js';

const TINY = join(SHARED, 'models', 'tiny');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-layouts-34-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of a generated model with an (empty) espeak-ng-data folder beside it. */
function withEspeak(name: string): string {
  cpSync(generatedModel(name), dir, { recursive: true });
  mkdirSync(join(dir, 'espeak-ng-data'));
  return dir;
}

describe('issue 34 layouts', () => {
  it('Kokoro v1.0 with its two lexicons; without either it is refused (sherpa-onnx would end the process)', async () => {
    withEspeak('kokoro-v1');
    expect(await detectLayout(dir)).toEqual({
      family: 'kokoro',
      files: { model: 'model.onnx', voices: 'voices.bin', tokens: 'tokens.txt', dataDir: 'espeak-ng-data', lexicon: 'lexicon-us-en.txt', lexiconZh: 'lexicon-zh.txt' },
    });
    rmSync(join(dir, 'lexicon-us-en.txt'));
    rmSync(join(dir, 'lexicon-zh.txt'));
    await expect(detectLayout(dir)).rejects.toThrow(/model\.onnx is a multilingual Kokoro \(v1\.0\) without lexicon-us-en\.txt or lexicon-zh\.txt/);
  });

  it('Kitten is told apart from Kokoro by its metadata, and Kokoro v0.19 stays Kokoro', async () => {
    withEspeak('kitten');
    expect(await detectLayout(dir)).toEqual({ family: 'kitten', files: { model: 'model.fp16.onnx', voices: 'voices.bin', tokens: 'tokens.txt', dataDir: 'espeak-ng-data' } });
    await expect(detectLayout(dir, 'kokoro')).rejects.toThrow(/does not hold a kokoro model/);
    expect((await detectLayout(join(TINY, 'tiny-kokoro'))).family).toBe('kokoro');
  });

  it('Matcha: the acoustic model with its vocoder beside it', async () => {
    withEspeak('matcha');
    expect(await detectLayout(dir)).toEqual({
      family: 'matcha',
      files: { acousticModel: 'model-steps-3.onnx', vocoder: 'hifigan_v2.onnx', tokens: 'tokens.txt', dataDir: 'espeak-ng-data' },
    });
  });

  it('a character-level VITS (Coqui Common Voice) needs no lexicon; a NeMo CTC folder is still NeMo CTC', async () => {
    expect(await detectLayout(generatedModel('coqui-bg'))).toEqual({ family: 'vits', files: { model: 'model.onnx', tokens: 'tokens.txt' } });
    expect((await detectLayout(join(TINY, 'tiny-nemo-ctc'))).family).toBe('nemo-ctc');
  });

  it('DPDFNet by its metadata', async () => {
    expect(await detectLayout(generatedModel('dpdfnet'))).toEqual({ family: 'dpdfnet', files: { model: 'dpdfnet_baseline.onnx' } });
  });

  it('spoken-language identification only when named, and never an English-only Whisper', async () => {
    const whisper = join(TINY, 'tiny-whisper');
    expect((await detectLayout(whisper)).family).toBe('whisper');
    expect(await detectLayout(whisper, 'language-id')).toEqual({
      family: 'language-id',
      files: { encoder: 'encoder.onnx', decoder: 'decoder.onnx' },
      languages: ['en', 'zh', 'de', 'es', 'ru', 'ko', 'fr', 'ja', 'pt', 'it'],
    });
    cpSync(whisper, dir, { recursive: true });
    const encoder = join(dir, 'encoder.onnx');
    execFileSync('/usr/bin/python3', ['-c', "import onnx,sys\nm=onnx.load(sys.argv[1])\nfor p in m.metadata_props:\n  p.value = '0' if p.key=='is_multilingual' else p.value\nonnx.save(m, sys.argv[1])", encoder]);
    await expect(detectLayout(dir, 'language-id')).rejects.toThrow(/encoder\.onnx is an English-only Whisper: spoken-language identification needs a multilingual one/);
  });
});
