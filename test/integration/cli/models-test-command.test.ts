/**
 * `voxdesk models test ID` in a real child process: the built-in sample recording transcribed by an imported tiny
 * NeMo CTC model (the text checked against sherpa-onnx run directly on the same file), the built-in sentence spoken
 * by the tiny Kokoro voice (its length checked the same way), and the errors a person can meet.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_TEST_SENTENCE, modelTestRecording } from '../../../src-main/cli/model-test-sample.js';
import type { ModelTestReport } from '../../../src-main/cli/model-test-command.js';
import { makeModelTestRecording } from '../../../scripts/make-model-test-sample.js';
import { TINY } from '../../helpers/tiny-archives.js';
import { generatedModel, PRODUCT_MODELS_SCRIPT } from '../../helpers/generated-models.js';

const RUNNER = fileURLToPath(new URL('./models-cli.ts', import.meta.url));
let dir: string;

function run(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', RUNNER, 'models', ...args, '--data-dir', dir], { env: { ...process.env, VOXDESK_BUILT_IN_MODELS: 'off' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- sherpa-onnx-node ships no types
const sherpa = createRequire(import.meta.url)('sherpa-onnx-node') as any;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-models-test-'));
  expect(await run('import', join(TINY, 'tiny-nemo-ctc'), '--id', 'ctc')).toMatchObject({ code: 0 });
  expect(await run('import', join(TINY, 'tiny-kokoro'), '--id', 'kokoro')).toMatchObject({ code: 0 });
  expect(await run('import', generatedModel('uvr-mdx', PRODUCT_MODELS_SCRIPT), '--id', 'uvr')).toMatchObject({ code: 0 });
  expect(await run('import', generatedModel('pocket-tts', PRODUCT_MODELS_SCRIPT), '--id', 'pocket')).toMatchObject({ code: 0 });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('voxdesk models test', () => {
  it('ships its sample recording in resources/, exactly as the generator makes it', async () => {
    expect(modelTestRecording()).toMatch(/resources\/samples\/model-test\.wav$/);
    expect(Buffer.from(await makeModelTestRecording()).equals(readFileSync(modelTestRecording()))).toBe(true);
  });

  it('transcribes the sample with a speech-to-text model and prints the text and the real-time factor', async () => {
    const recognizer = new sherpa.OfflineRecognizer({
      featConfig: { sampleRate: 16000, featureDim: 80 },
      modelConfig: { nemoCtc: { model: join(TINY, 'tiny-nemo-ctc', 'model.onnx') }, tokens: join(TINY, 'tiny-nemo-ctc', 'tokens.txt'), numThreads: 1 },
    });
    const wave = sherpa.readWave(modelTestRecording());
    const stream = recognizer.createStream();
    stream.acceptWaveform(wave);
    recognizer.decode(stream);
    const expected = (recognizer.getResult(stream).text as string).replace(/\s+/g, ' ').trim();
    expect(expected).not.toBe('');

    const json = await run('test', 'ctc', '--json');
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as ModelTestReport;
    expect(report).toMatchObject({ id: 'ctc', capability: 'asr', result: { text: expected }, input: { recording: modelTestRecording(), seconds: 4.313 } });
    expect(report.audio_seconds).toBe(4.313);
    expect(report.processing_seconds).toBeGreaterThan(0);
    expect(report.real_time_factor).toBeCloseTo(report.processing_seconds / report.audio_seconds, 6);
    expect(report.first_run_seconds).toBeGreaterThan(0);

    const text = await run('test', 'ctc');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^ctc \\(ctc, asr\\)\\nsample: 4\\.31 s recording\\ntext:   ${JSON.stringify(expected).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\nreal-time factor \\d+\\.\\d{3} \\(\\d+\\.\\d\\d s for 4\\.31 s of audio; loading the model took about \\d+\\.\\d\\d s more\\)\\n$`));
  });

  it('speaks the built-in sentence with a voice, saves it with --out, and reports the audio length', async () => {
    const tts = await sherpa.OfflineTts.createAsync({
      model: {
        kokoro: { model: join(TINY, 'tiny-kokoro', 'model.int8.onnx'), voices: join(TINY, 'tiny-kokoro', 'voices.bin'), tokens: join(TINY, 'tiny-kokoro', 'tokens.txt'), dataDir: join(TINY, 'tiny-kokoro', 'espeak-ng-data') },
        numThreads: 1,
      },
    });
    const samples = ((await tts.generateAsync({ text: MODEL_TEST_SENTENCE, sid: 0, speed: 1 })) as { samples: Float32Array }).samples.length;
    const out = join(dir, 'voice.wav');
    const result = await run('test', 'kokoro', '--json', '--out', out);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as ModelTestReport;
    expect(report).toMatchObject({ id: 'kokoro', capability: 'tts', input: { text: MODEL_TEST_SENTENCE }, result: { file: out } });
    expect(report.audio_seconds).toBe(Number((samples / 24000).toFixed(3)));
    const wav = readFileSync(out);
    expect(wav.readUInt32LE(wav.indexOf('data', 12) + 4) / 2).toBe(samples);
  });

  it('separates the sample with a stem-separation model, saves the vocals with --out, and reports the length', async () => {
    const out = join(dir, 'vocals.wav');
    const result = await run('test', 'uvr', '--json', '--out', out);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as ModelTestReport;
    expect(report).toMatchObject({ id: 'uvr', capability: 'stem_separation', input: { recording: modelTestRecording(), seconds: 4.313 }, result: { file: out } });
    expect(report.audio_seconds).toBe(4.313);
    const wav = readFileSync(out);
    // The sample's rate and exact length (16 kHz mono): the stems keep the upload's form.
    const sample = readFileSync(modelTestRecording());
    expect(wav.readUInt32LE(24)).toBe(16000);
    expect(wav.readUInt32LE(wav.indexOf('data', 12) + 4)).toBe(sample.readUInt32LE(sample.indexOf('data', 12) + 4));
  });

  it('clones the sample recording\'s voice with a zero-shot voice model, saves the speech with --out', async () => {
    const out = join(dir, 'cloned.wav');
    const result = await run('test', 'pocket', '--json', '--out', out);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as ModelTestReport;
    expect(report).toMatchObject({ id: 'pocket', capability: 'voice_cloning', input: { text: MODEL_TEST_SENTENCE }, result: { file: out } });
    expect(report.audio_seconds).toBeGreaterThan(0);
    const wav = readFileSync(out);
    expect(wav.readUInt32LE(24)).toBe(24000);
    expect(wav.toString('latin1')).toContain('Synthetic speech');
  });

  it('explains a model that is unknown or not downloaded', async () => {
    expect(await run('test', 'nope')).toMatchObject({ code: 1, stderr: expect.stringContaining('no model nope') });
    expect(await run('test', 'parakeet-tdt-0.6b-v2')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('parakeet-tdt-0.6b-v2 is not available: not downloaded — voxdesk models pull parakeet-tdt-0.6b-v2'),
    });
  });
});
