/**
 * Every model family from download to finished job, the way people get them: the service's model manager downloads
 * each package from a local HTTP server (through the mirror setting, with the curated entries' ids, families and
 * file names, and the tiny archives' sha256 and sizes), verifies, extracts and detects it, the catalogue row
 * becomes available, and a real job through the HTTP API gives the exact output ../shared/models/tiny/README.md
 * states. Texts are compared after the service's documented whitespace normalisation (runs of spaces collapse).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobResult } from '../../../src-main/common/api-types.js';
import { diarize } from '../../../src-main/engines/asr/diarization.js';
import { decodeBlocks } from '../../../src-main/engines/audio/decode.js';
import { segmentSpeech } from '../../../src-main/engines/audio/segments.js';
import { CURATED_PACKAGES, type ModelPackage } from '../../../src-main/models/packages/curated-models.js';
import type { PackageStatus } from '../../../src-main/models/packages/package-status.js';
import { SHARED } from '../../helpers/system.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { Client } from '../../helpers/http-client.js';
import { startRangeServer, type RangeServer } from '../../helpers/range-server.js';
import { packedArchives, shippedArchive, TINY, type Archive } from '../../helpers/tiny-archives.js';
import { scaled } from '../../helpers/time-scale.js';

const JFK = join(SHARED, 'audio', 'jfk.wav');
const PAUSES = join(SHARED, 'audio', 'noisy', 'silero-test.wav');
const TWO_SPEAKERS = join(SHARED, 'audio', 'diarization', 'pyannote-2spk.wav');
const SHERPA_RELEASES = 'https://github.com/k2-fsa/sherpa-onnx/releases/download';

/** ../shared/models/tiny/README.md, jfk.wav as one segment (raw engine text, spaces as the README prints them). */
const README = {
  'nemo-ctc': 'cm cacuuevppmcshj y ghye    tld gtdcyuubsucdzbmpof ucmcwxwwdjw oet',
  'nemo-transducer': 's andhe a pzzsi a ayirihkieqrtthing',
  whisper: 'co lhlr    fc smfh lourqdrwvbdu surll',
  moonshine: 'dse theafg thednysemeqa theov topmv andht l oft   ton  afl',
  senseVoice: 'wc toxxixixxiwx cxxxxxxccxlxcwcxccxlxxxcxwxxxx c ',
  senseVoiceItn: 'wc toxxixixxiwx cxxxxxxccxlxcwcxccx,xxxcxwxxxx c ',
  streaming: 'TOZHHH ARPSRO THEYOY YHPYSCOLSFEP ANDF THEAHMU THESASPYHY',
  /** pyannote-2spk.wav, numClusters 2. */
  turns: '6.73-14.76:0 10.59-10.97:1 14.34-17.99:1 17.99-21.50:0 21.77-28.18:1 27.98-29.97:0',
} as const;

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();
const curated = (id: string) => CURATED_PACKAGES.find((p) => p.id === id)!;

function extra(id: string, family: ModelPackage['family'], capability: ModelPackage['capability'], folder: string, archive: string): ModelPackage {
  return {
    id,
    name: id,
    description: 'tiny random-weight test model',
    capability,
    family,
    languages: ['en'],
    licence: 'test',
    version: archive,
    files: [{ url: `${SHERPA_RELEASES}/${folder}/${archive}`, sha256: null, sizeBytes: 0, path: '', extract: 'tar.bz2' }],
  };
}

/** What the recognizer itself says for each VAD segment, joined the way the transcript joins pieces. */
async function perSegment(config: Record<string, unknown>, file: string, vadModel: string): Promise<string[]> {
  const sherpa = createRequire(import.meta.url)('sherpa-onnx-node') as {
    OfflineRecognizer: new (c: Record<string, unknown>) => {
      createStream(): { acceptWaveform(w: { samples: Float32Array; sampleRate: number }): void };
      decode(s: unknown): void;
      getResult(s: unknown): { text: string };
    };
  };
  const recognizer = new sherpa.OfflineRecognizer({ featConfig: { sampleRate: 16000, featureDim: 80 }, modelConfig: { ...config, numThreads: 1, debug: 0 } });
  const texts: string[] = [];
  for await (const segment of segmentSpeech(decodeBlocks(file), { vadModel })) {
    const stream = recognizer.createStream();
    stream.acceptWaveform({ samples: segment.samples, sampleRate: 16000 });
    recognizer.decode(stream);
    texts.push(normalise(recognizer.getResult(stream).text));
  }
  return texts.filter((t) => t !== '');
}

/** Job params per family for the VAD runs (Whisper in English, SenseVoice without ITN, as the direct configs). */
const VAD_PARAMS: Record<string, Record<string, unknown>> = {
  'nemo-ctc-en-conformer-small': {},
  'parakeet-tdt-0.6b-v2': {},
  'whisper-tiny-en': { language: 'en' },
  'moonshine-tiny-en': {},
  'sense-voice-2024-07-17': { use_itn: false },
};

/**
 * What sherpa-onnx itself gives with the same model files (the archives hold the ../shared/models/tiny files):
 * per VAD segment of PAUSES, and the speaker turns of TWO_SPEAKERS. Computed before the service starts, because
 * these calls block the event loop, which the in-process service shares (an idle keep-alive connection would be
 * closed under a waiting request).
 */
async function directExpectations(): Promise<{ perSegment: Record<string, string[]>; turns: ReturnType<typeof diarize> }> {
  const t = (folder: string, file: string) => join(TINY, folder, file);
  const vad = join(SHARED, 'models', 'silero_vad_v5.onnx');
  const configs: Record<string, Record<string, unknown>> = {
    'nemo-ctc-en-conformer-small': { nemoCtc: { model: t('tiny-nemo-ctc', 'model.onnx') }, tokens: t('tiny-nemo-ctc', 'tokens.txt') },
    'parakeet-tdt-0.6b-v2': {
      transducer: { encoder: t('tiny-nemo-tdt', 'encoder.int8.onnx'), decoder: t('tiny-nemo-tdt', 'decoder.int8.onnx'), joiner: t('tiny-nemo-tdt', 'joiner.int8.onnx') },
      modelType: 'nemo_transducer',
      tokens: t('tiny-nemo-tdt', 'tokens.txt'),
    },
    'whisper-tiny-en': {
      whisper: { encoder: t('tiny-whisper', 'encoder.onnx'), decoder: t('tiny-whisper', 'decoder.onnx'), language: 'en', task: 'transcribe' },
      tokens: t('tiny-whisper', 'tokens.txt'),
    },
    'moonshine-tiny-en': {
      moonshine: {
        preprocessor: t('tiny-moonshine', 'preprocess.onnx'),
        encoder: t('tiny-moonshine', 'encode.int8.onnx'),
        uncachedDecoder: t('tiny-moonshine', 'uncached_decode.int8.onnx'),
        cachedDecoder: t('tiny-moonshine', 'cached_decode.int8.onnx'),
      },
      tokens: t('tiny-moonshine', 'tokens.txt'),
    },
    'sense-voice-2024-07-17': {
      senseVoice: { model: t('tiny-sense-voice', 'model.int8.onnx'), language: '', useInverseTextNormalization: 0 },
      tokens: t('tiny-sense-voice', 'tokens.txt'),
    },
  };
  const perSegmentTexts: Record<string, string[]> = {};
  for (const [id, config] of Object.entries(configs)) perSegmentTexts[id] = await perSegment(config, PAUSES, vad);
  const samples: Float32Array[] = [];
  for await (const block of decodeBlocks(TWO_SPEAKERS)) samples.push(block);
  const all = new Float32Array(samples.reduce((n, b) => n + b.length, 0));
  samples.reduce((offset, b) => (all.set(b, offset), offset + b.length), 0);
  const turns = diarize({ segmentation: join(SHARED, 'models', 'pyannote-segmentation-3-0.int8.onnx'), embedding: join(TINY, 'tiny-speaker-embedding.onnx') }, all, { exact: 2 });
  return { perSegment: perSegmentTexts, turns };
}

let direct: Awaited<ReturnType<typeof directExpectations>>;
let work: string;
let server: RangeServer;
let svc: TestService;
let client: Client;
const progress = new Map<string, PackageStatus[]>();
const packages: ModelPackage[] = [];

/** The package with its one file served by the mirror from `body`, pinned to the body's sha256 and size. */
function serve(base: ModelPackage, archive: Archive | { name?: string; body: Buffer; sha256: string }): ModelPackage {
  const file = base.files[0]!;
  server.files.set(`/${base.id}/${basename(new URL(file.url).pathname)}`, { body: archive.body });
  const pkg = { ...base, files: [{ ...file, sha256: archive.sha256, sizeBytes: archive.body.length }] };
  packages.push(pkg);
  return pkg;
}

async function pull(id: string): Promise<PackageStatus> {
  const answer = await client.post(`/v1/local/models/${id}/download`);
  expect([200, 202]).toContain(answer.status);
  await svc.service.models.whenDone(id);
  return (await (await client.get(`/v1/local/models/${id}`)).json()) as PackageStatus;
}

interface JobBody {
  id: string;
  status: string;
  error_code: string | null;
  error_message?: string | null;
  result: JobResult | null;
}

async function transcribe(model: string, file: string, params: Record<string, unknown> = {}): Promise<JobResult> {
  const { readFileSync } = await import('node:fs');
  const response = await client.postForm('/v1/speech-to-text', [
    { name: 'model', value: model },
    { name: 'params', value: JSON.stringify(params) },
    { name: 'file', file: { name: basename(file), data: new Uint8Array(readFileSync(file)) } },
  ]);
  const job = (await response.json()) as JobBody;
  expect({ status: job.status, error: job.error_code, message: job.error_message ?? null }).toEqual({ status: 'succeeded', error: null, message: null });
  return job.result!;
}

/** Samples of the WAV artifact of a finished text-to-speech job (16-bit mono). */
async function speak(model: string, text: string, params: Record<string, unknown> = {}): Promise<{ samples: number; sampleRate: number }> {
  const response = await client.postJson('/v1/text-to-speech', { model, text, params: { output_format: 'wav', ...params } });
  const job = (await response.json()) as JobBody;
  expect({ status: job.status, error: job.error_code, message: job.error_message ?? null }).toEqual({ status: 'succeeded', error: null, message: null });
  const wav = Buffer.from(await (await fetch(job.result!.artifacts![0]!.url)).arrayBuffer());
  const data = wav.indexOf('data', 12);
  return { samples: wav.readUInt32LE(data + 4) / 2, sampleRate: wav.readUInt32LE(24) };
}

beforeAll(async () => {
  direct = await directExpectations();
  work = mkdtempSync(join(tmpdir(), 'voxdesk-families-'));
  server = await startRangeServer();
  const built = packedArchives(work);
  serve(curated('parakeet-tdt-0.6b-v2'), shippedArchive('sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8.tar.bz2'));
  serve(curated('moonshine-tiny-en'), shippedArchive('sherpa-onnx-moonshine-tiny-en-int8.tar.bz2'));
  serve(curated('sense-voice-2024-07-17'), shippedArchive('sherpa-onnx-sense-voice-zh-en-ja-ko-yue-int8-2024-07-17.tar.bz2'));
  serve(curated('whisper-tiny-en'), built.whisper);
  serve(curated('kokoro-en-v0_19'), shippedArchive('kokoro-int8-en-v0_19.tar.bz2'));
  serve(curated('piper-en-us-lessac-medium'), built.piper);
  serve(extra('nemo-ctc-en-conformer-small', 'nemo-ctc', 'asr', 'asr-models', built.nemoCtc.name), built.nemoCtc);
  serve(extra('vits-ljs', 'vits', 'tts', 'tts-models', built.vits.name), built.vits);
  serve(extra('zipformer-streaming-tiny', 'streaming-transducer', 'asr', 'asr-models', 'sherpa-onnx-streaming-zipformer-en-tiny-random.tar.bz2'), shippedArchive('sherpa-onnx-streaming-zipformer-en-tiny-random.tar.bz2'));
  serve(extra('piper-not-a-piper', 'piper', 'tts', 'tts-models', built.notPiper.name), built.notPiper);
  const { readFileSync } = await import('node:fs');
  const embedding = readFileSync(join(TINY, 'tiny-speaker-embedding.onnx'));
  const { sha256 } = await import('../../helpers/tiny-archives.js');
  serve(curated('titanet-small-en'), { body: embedding, sha256: sha256(embedding) });
  // The support models ../shared ships are the curated pins themselves.
  for (const [id, file] of [
    ['silero-vad-v5', 'silero_vad_v5.onnx'],
    ['pyannote-segmentation-3-0', 'pyannote-segmentation-3-0.int8.onnx'],
  ] as const) {
    const pkg = curated(id);
    server.files.set(`/${id}/${basename(new URL(pkg.files[0]!.url).pathname)}`, { body: readFileSync(join(SHARED, 'models', file)) });
    packages.push(pkg);
  }
  svc = await startTestService({ modelPackages: packages, modelMirror: server.url, holdSeconds: 120, workers: 1 });
  client = new Client(svc.url, svc.key);
  svc.service.models.on('progress', (p) => progress.set(p.id, [...(progress.get(p.id) ?? []), p]));
});

afterAll(async () => {
  await svc?.stop();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('every family from download to job', () => {
  const families: Array<[string, string, Record<string, string>]> = [
    ['parakeet-tdt-0.6b-v2', 'nemo-transducer', { encoder: 'encoder.int8.onnx', decoder: 'decoder.int8.onnx', joiner: 'joiner.int8.onnx', tokens: 'tokens.txt' }],
    ['moonshine-tiny-en', 'moonshine', { preprocessor: 'preprocess.onnx', encoder: 'encode.int8.onnx', uncachedDecoder: 'uncached_decode.int8.onnx', cachedDecoder: 'cached_decode.int8.onnx', tokens: 'tokens.txt' }],
    ['sense-voice-2024-07-17', 'sense-voice', { model: 'model.int8.onnx', tokens: 'tokens.txt' }],
    ['whisper-tiny-en', 'whisper', { encoder: 'tiny.en-encoder.onnx', decoder: 'tiny.en-decoder.onnx', tokens: 'tiny.en-tokens.txt' }],
    ['nemo-ctc-en-conformer-small', 'nemo-ctc', { model: 'model.onnx', tokens: 'tokens.txt' }],
    ['zipformer-streaming-tiny', 'streaming-transducer', {
      encoder: 'encoder-epoch-99-avg-1-chunk-16-left-128.onnx',
      decoder: 'decoder-epoch-99-avg-1-chunk-16-left-128.onnx',
      joiner: 'joiner-epoch-99-avg-1-chunk-16-left-128.onnx',
      tokens: 'tokens.txt',
    }],
    ['kokoro-en-v0_19', 'kokoro', { model: 'model.int8.onnx', voices: 'voices.bin', tokens: 'tokens.txt', dataDir: 'espeak-ng-data' }],
    ['vits-ljs', 'vits', { model: 'vits-ljs.onnx', tokens: 'tokens.txt', lexicon: 'lexicon.txt' }],
    ['piper-en-us-lessac-medium', 'piper', { model: 'en_US-lessac-medium.onnx', tokens: 'tokens.txt', dataDir: 'espeak-ng-data' }],
  ];

  it('downloads each package with progress, verifies its sha256, extracts it and detects its layout', async () => {
    for (const [id] of families) {
      const before = (await (await client.get(`/v1/models/${id}`)).json()) as { status: string; reason: string; download: { size_bytes: number } };
      expect(before.status).toBe('unavailable');
      expect(before.reason).toBe(`not downloaded — voxdesk models pull ${id}`);
      expect(before.download.size_bytes).toBe(packages.find((p) => p.id === id)!.files[0]!.sizeBytes);
    }
    const statuses = await Promise.all(families.map(([id]) => pull(id)));
    for (const [i, [id, family, files]] of families.entries()) {
      const size = packages.find((p) => p.id === id)!.files[0]!.sizeBytes;
      expect(statuses[i]).toMatchObject({ id, family, state: 'installed', installed: true, verified: true, error_code: null });
      expect(svc.service.models.installed(id)!.files).toEqual(files);
      const seen = progress.get(id) ?? [];
      expect(seen[0]).toMatchObject({ state: 'downloading' });
      const installing = seen.find((p) => p.state === 'installing');
      expect(installing).toMatchObject({ downloaded_bytes: size, progress: 1 });
      expect(server.requests.some((r) => r.path.startsWith(`/${id}/`) && r.status === 200)).toBe(true);
    }
  });

  it('makes each catalogue row available with its family\'s engine; the streaming model is a live ASR model', async () => {
    const row = async (id: string) => (await (await client.get(`/v1/models/${id}`)).json()) as Record<string, unknown>;
    for (const [id] of families) expect(await row(id)).toMatchObject({ status: 'available', reason: null, provider: 'local' });
    expect(await row('parakeet-tdt-0.6b-v2')).toMatchObject({ capability: 'asr', products: ['speech-to-text'], engine: 'sherpa-asr', live: false });
    expect(await row('zipformer-streaming-tiny')).toMatchObject({ capability: 'asr', products: ['speech-to-text'], engine: 'sherpa-asr', live: true });
    const kokoro = await row('kokoro-en-v0_19');
    expect(kokoro).toMatchObject({ capability: 'tts', engine: 'sherpa-tts', live: true, accepts_speed: true });
    expect((kokoro.params_schema as { properties: Record<string, unknown> }).properties.speaker).toMatchObject({ minimum: 0, maximum: 10 });
    const vits = await row('vits-ljs');
    expect((vits.params_schema as { properties: Record<string, unknown> }).properties.speaker).toMatchObject({ maximum: 1 });
    // Whisper: the package offers the languages of the curated entry that the model itself declares.
    expect(await row('whisper-tiny-en')).toMatchObject({ languages: ['en'] });
  });

  it('a Piper layout whose model is not a Piper export is refused at install (sherpa-onnx would end the process)', async () => {
    const status = await pull('piper-not-a-piper');
    expect(status).toMatchObject({ state: 'failed', installed: false, error_code: 'install_failed' });
    expect(status.error_message).toMatch(/en_US-lessac-medium\.onnx has espeak-ng-data but no lexicon\.txt.*not mark it as a Piper/);
    expect((await (await client.get('/v1/models/piper-not-a-piper')).json()) as { status: string }).toMatchObject({ status: 'unavailable' });
  });

  it('recognises jfk.wav with the README\'s exact text for every ASR family: its one engine segment, read in sentences', async () => {
    /**
     * The README's text, from the engine's one segment (0–11 s); the job's result reads it in sentences
     * (sentence-segments.ts): the same words in order, from 0 to 11 s, numbered 0 … n−1.
     */
    const expectOne = (result: JobResult, text: string): void => {
      const want = normalise(text);
      expect(result.text).toBe(want);
      const segments = result.segments!;
      expect(segments.map((s) => s.text).join(' ')).toBe(want);
      expect(segments.map((s) => s.id)).toEqual(segments.map((_, i) => i));
      expect([segments[0]!.start, segments.at(-1)!.end]).toEqual([0, 11]);
      for (let i = 1; i < segments.length; i++) expect(segments[i]!.start).toBeGreaterThanOrEqual(segments[i - 1]!.end);
    };
    const ctc = await transcribe('nemo-ctc-en-conformer-small', JFK);
    expectOne(ctc, README['nemo-ctc']);
    expect(ctc).toMatchObject({ duration: 11, language: 'en' });
    const tdt = await transcribe('parakeet-tdt-0.6b-v2', JFK);
    expectOne(tdt, README['nemo-transducer']);
    expect(tdt.words!.length).toBe(normalise(README['nemo-transducer']).split(' ').length);
    const whisper = await transcribe('whisper-tiny-en', JFK, { language: 'en' });
    expectOne(whisper, README.whisper);
    expect(whisper).toMatchObject({ duration: 11, language: 'en' });
    // No token times from this export: words spread over the segment, marked (issue 32, point 1).
    expect(whisper.words!.map((w) => w.word).join(' ')).toBe(normalise(README.whisper));
    expect(whisper.words!.every((w) => w.interpolated)).toBe(true);
    expectOne(await transcribe('whisper-tiny-en', JFK), README.whisper);
    expectOne(await transcribe('moonshine-tiny-en', JFK), README.moonshine);
    const sense = await transcribe('sense-voice-2024-07-17', JFK, { use_itn: false });
    expectOne(sense, README.senseVoice);
    expect(sense.language).toBe('en');
    expectOne(await transcribe('sense-voice-2024-07-17', JFK), README.senseVoiceItn);
    const streamed = await transcribe('zipformer-streaming-tiny', JFK);
    expect(streamed.text).toBe(README.streaming);
    expectOne(streamed, README.streaming);
    expect(streamed.words![0]!.start).toBeCloseTo(0.36, 5);
    expect(streamed.words!.map((w) => w.word).join(' ')).toBe(README.streaming);
    // Nine jobs of six families: under a minute on a quiet machine, more on the shared one.
  }, scaled(300_000));

  it('speaks with Kokoro and VITS with the README\'s exact sample counts', async () => {
    expect(await speak('kokoro-en-v0_19', 'hello world')).toEqual({ samples: 18000, sampleRate: 24000 });
    expect((await speak('kokoro-en-v0_19', 'hello world', { speed: 2 })).samples).toBe(9000);
    expect((await speak('kokoro-en-v0_19', 'hello world', { speed: 0.5 })).samples).toBe(36000);
    expect((await speak('kokoro-en-v0_19', 'hello world', { speaker: 10 })).samples).toBe(18000);
    expect((await speak('kokoro-en-v0_19', 'Hello, world! This is a test.')).samples).toBe(42000);
    expect(await speak('vits-ljs', 'hello world')).toEqual({ samples: 23552, sampleRate: 22050 });
    expect((await speak('vits-ljs', 'hello world', { speed: 2 })).samples).toBe(11776);
    expect((await speak('vits-ljs', 'hello world', { speed: 0.5 })).samples).toBe(47104);
    expect((await speak('vits-ljs', 'hello world', { speaker: 1 })).samples).toBe(23552);
    expect((await speak('vits-ljs', 'Hello, world! This is a test.')).samples).toBe(67584);
  });

  it('the Piper voice row takes its speakers and rate from the .onnx.json, and speaks through espeak-ng-data', async () => {
    const piper = svc.service.catalogue.resolveModel('piper-en-us-lessac-medium')!;
    expect(piper.engineConfig).toMatchObject({
      family: 'piper',
      numSpeakers: 1,
      sampleRate: 22050,
      model: { vits: { dataDir: join(svc.dataDir, 'models', 'piper-en-us-lessac-medium', 'espeak-ng-data') } },
    });
    expect((piper.engineConfig as { model: { vits: Record<string, string> } }).model.vits.lexicon).toBeUndefined();
  });
});

describe('with Silero VAD installed', () => {
  it('transcribes a recording with pauses as the exact concatenation of per-segment results', async () => {
    expect((await pull('silero-vad-v5')).state).toBe('installed');
    for (const [id, params] of Object.entries(VAD_PARAMS)) {
      const expected = direct.perSegment[id]!;
      expect(expected.length, `${id}: VAD segments with speech`).toBeGreaterThan(1);
      const result = await transcribe(id, PAUSES, params);
      expect({ id, text: result.text }).toEqual({ id, text: expected.join(' ') });
      // The job's segments are those VAD segments in sentences (cut at pauses of a second: sentence-segments.ts).
      expect(result.segments!.map((s) => s.text).join(' ')).toBe(expected.join(' '));
      expect(result.segments!.length).toBeGreaterThanOrEqual(expected.length);
    }
    // Five recognizers over a 40 s recording: 12 s on a quiet machine, past a minute on the shared one.
  }, scaled(300_000));

  it('labels speakers with the tiny speaker embedding: the README\'s exact turns, and every word takes its turn\'s speaker', async () => {
    expect((await pull('pyannote-segmentation-3-0')).state).toBe('installed');
    expect((await pull('titanet-small-en')).state).toBe('installed');
    const turns = direct.turns;
    expect(turns.map((t) => `${t.start.toFixed(2)}-${t.end.toFixed(2)}:${t.speaker.replace('SPEAKER_', '')}`).join(' ')).toBe(README.turns);

    const readmeTurns = README.turns.split(' ').map((t) => {
      const [range, speaker] = t.split(':');
      const [start, end] = range!.split('-').map(Number);
      return { start: start!, end: end!, speaker: `SPEAKER_${speaker}` };
    });
    const result = await transcribe('nemo-ctc-en-conformer-small', TWO_SPEAKERS, { speaker_diarization: true, num_speakers: 2 });
    expect(result.words!.length).toBeGreaterThan(5);
    for (const word of result.words!) {
      // The speaker whose turns overlap the word most (summed over turns), else the nearest turn's.
      const overlap = new Map<string, number>();
      for (const t of readmeTurns) {
        const o = Math.min(word.end, t.end) - Math.max(word.start, t.start);
        if (o > 0) overlap.set(t.speaker, (overlap.get(t.speaker) ?? 0) + o);
      }
      const distance = (t: (typeof readmeTurns)[number]) => Math.max(t.start - word.end, word.start - t.end, 0);
      const expected =
        overlap.size > 0
          ? [...overlap].sort((a, b) => b[1] - a[1])[0]![0]
          : [...readmeTurns].sort((a, b) => distance(a) - distance(b))[0]!.speaker;
      expect({ word: word.word, start: word.start, speaker: word.speaker }).toEqual({ word: word.word, start: word.start, speaker: expected });
    }
    expect(new Set(result.segments!.map((s) => s.speaker))).toEqual(new Set(['SPEAKER_0', 'SPEAKER_1']));
  });
});
