/**
 * sherpa-onnx's source separation (Spleeter 2 stems, UVR MDX-Net) called through koffi in its C library. The Node
 * add-on (sherpa-onnx-node 1.13.8) does not wrap source separation, but the platform package it installs beside it
 * (sherpa-onnx-linux-x64, -darwin-*, -win-*) ships the C API library whose functions are bound here, with the
 * structs of sherpa-onnx/c-api/c-api.h ("Source separation"). The library exits the process on a model it cannot
 * use (wrong metadata, more than 2 stems), so only a worker process (where a crash fails one job) calls this.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import koffi, { type LibraryHandle, type TypeObject } from 'koffi';
import { JobError } from '../../common/errors.js';

/** The models of one separator: Spleeter's two files, or UVR's one. Paths are absolute. */
export type SeparatorModel = { kind: 'spleeter'; vocals: string; accompaniment: string } | { kind: 'uvr'; model: string };

/** One stem as the library returns it: channels of equal length at the separator's rate. */
export interface SeparatedStem {
  channels: Float32Array[];
}

export interface Separator {
  /** The rate the model works at (input at another rate is resampled by the library). */
  readonly sampleRate: number;
  readonly stemCount: number;
  /** Separates `channels` (1 or 2 of equal length, -1..1 floats at `rate`): stems in the model's order, 2 channels each. */
  process(channels: Float32Array[], rate: number): SeparatedStem[];
  dispose(): void;
}

const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': 'sherpa-onnx-linux-x64',
  'linux-arm64': 'sherpa-onnx-linux-arm64',
  'darwin-x64': 'sherpa-onnx-darwin-x64',
  'darwin-arm64': 'sherpa-onnx-darwin-arm64',
  'win32-x64': 'sherpa-onnx-win-x64',
  'win32-ia32': 'sherpa-onnx-win-ia32',
};

const LIBRARY_FILES: Record<string, string> = {
  linux: 'libsherpa-onnx-c-api.so',
  darwin: 'libsherpa-onnx-c-api.dylib',
  win32: 'sherpa-onnx-c-api.dll',
};

/**
 * Where the C API library is: `VOXDESK_SHERPA_ONNX_C_API` (a path) wins; else the platform package sherpa-onnx-node
 * installed. In a packaged app the package sits in app.asar.unpacked (native files cannot be loaded from the asar).
 */
export function sherpaCApiPath(): string {
  const override = process.env.VOXDESK_SHERPA_ONNX_C_API;
  if (override) return override;
  const pkg = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`];
  const file = LIBRARY_FILES[process.platform];
  if (!pkg || !file) throw new JobError('model_unavailable', `source separation has no sherpa-onnx library for ${process.platform}-${process.arch}`);
  let dir: string;
  try {
    dir = dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`));
  } catch (cause) {
    throw new JobError('model_unavailable', `the sherpa-onnx platform package ${pkg} is not installed (npm install installs it with sherpa-onnx-node)`, { cause });
  }
  const path = join(dir.replace(`app.asar${sep}`, `app.asar.unpacked${sep}`), file);
  return existsSync(path) ? path : join(dir, file);
}

interface Bound {
  create(config: unknown): unknown;
  destroy(ss: unknown): void;
  outputRate(ss: unknown): number;
  stemCount(ss: unknown): number;
  process(ss: unknown, samples: Float32Array[], channels: number, n: number, rate: number): unknown;
  freeOutput(out: unknown): void;
  outputType: TypeObject;
  stemType: TypeObject;
}

let bound: Bound | null = null;

/** Binds the library once per process; model_unavailable when it cannot be loaded or lacks the functions. */
export function separationApi(): Bound {
  if (bound) return bound;
  const path = sherpaCApiPath();
  let lib: LibraryHandle;
  try {
    lib = koffi.load(path);
  } catch (cause) {
    throw new JobError('model_unavailable', `the sherpa-onnx C library could not be loaded from ${path}: ${(cause as Error).message}`, { cause });
  }
  // c-api.h, "Source separation" (unchanged from sherpa-onnx 1.12 to 1.13).
  const spleeter = koffi.struct('VoxdeskSpleeterModelConfig', { vocals: 'const char *', accompaniment: 'const char *' });
  const uvr = koffi.struct('VoxdeskUvrModelConfig', { model: 'const char *' });
  const modelConfig = koffi.struct('VoxdeskSeparationModelConfig', {
    spleeter,
    uvr,
    num_threads: 'int32_t',
    debug: 'int32_t',
    provider: 'const char *',
  });
  koffi.struct('VoxdeskSeparationConfig', { model: modelConfig });
  const stemType = koffi.struct('VoxdeskSeparationStem', { samples: 'void *', num_channels: 'int32_t', n: 'int32_t' });
  const outputType = koffi.struct('VoxdeskSeparationOutput', { stems: 'void *', num_stems: 'int32_t', sample_rate: 'int32_t' });
  try {
    bound = {
      create: lib.func('void *SherpaOnnxCreateOfflineSourceSeparation(const VoxdeskSeparationConfig *config)'),
      destroy: lib.func('void SherpaOnnxDestroyOfflineSourceSeparation(void *ss)'),
      outputRate: lib.func('int32_t SherpaOnnxOfflineSourceSeparationGetOutputSampleRate(void *ss)'),
      stemCount: lib.func('int32_t SherpaOnnxOfflineSourceSeparationGetNumberOfStems(void *ss)'),
      process: lib.func('void *SherpaOnnxOfflineSourceSeparationProcess(void *ss, float **samples, int32_t num_channels, int32_t num_samples, int32_t sample_rate)'),
      freeOutput: lib.func('void SherpaOnnxDestroySourceSeparationOutput(void *p)'),
      outputType,
      stemType,
    };
  } catch (cause) {
    throw new JobError('model_unavailable', `the sherpa-onnx C library at ${path} has no source-separation API (sherpa-onnx 1.12 or newer has it): ${(cause as Error).message}`, { cause });
  }
  return bound;
}

/** The library's output → our arrays (copied: the native memory is freed right after). */
function readOutput(api: Bound, out: unknown): SeparatedStem[] {
  const header = koffi.decode(out, api.outputType) as { stems: unknown; num_stems: number };
  const stems = koffi.decode(header.stems, koffi.array(api.stemType, header.num_stems)) as { samples: unknown; num_channels: number; n: number }[];
  return stems.map((stem) => {
    const pointers = koffi.decode(stem.samples, koffi.array('void *', stem.num_channels)) as unknown[];
    return { channels: pointers.map((p) => (stem.n > 0 ? new Float32Array(koffi.view(p, stem.n * 4).slice(0)) : new Float32Array(0))) };
  });
}

/** Loads a separator; model_unavailable when the files are missing or the library refuses them. */
export function createSeparator(model: SeparatorModel, numThreads = 1): Separator {
  const files = model.kind === 'spleeter' ? [model.vocals, model.accompaniment] : [model.model];
  const missing = files.find((f) => !existsSync(f));
  if (missing) throw new JobError('model_unavailable', `the separation model file ${missing} is missing; pull or import the model again`);
  const api = separationApi();
  const config = {
    model: {
      spleeter: model.kind === 'spleeter' ? { vocals: model.vocals, accompaniment: model.accompaniment } : { vocals: '', accompaniment: '' },
      uvr: { model: model.kind === 'uvr' ? model.model : '' },
      num_threads: numThreads,
      debug: 0,
      provider: 'cpu',
    },
  };
  let ss: unknown = api.create(config);
  if (!ss) throw new JobError('model_unavailable', `sherpa-onnx could not load the ${model.kind} separation model`);
  const sampleRate = api.outputRate(ss);
  const stemCount = api.stemCount(ss);
  return {
    sampleRate,
    stemCount,
    process(channels, rate) {
      if (!ss) throw new Error('the separator was disposed');
      const n = channels[0]?.length ?? 0;
      if (channels.length < 1 || channels.length > 2 || channels.some((c) => c.length !== n)) {
        throw new Error('source separation takes 1 or 2 channels of equal length');
      }
      // Spleeter reads a second channel unconditionally and exits the process without one: mono goes in twice.
      const stereo = channels.length === 1 ? [channels[0]!, channels[0]!] : channels;
      const out = api.process(ss, stereo, 2, n, rate);
      if (!out) throw new JobError('engine_failed', 'sherpa-onnx source separation returned no output');
      try {
        return readOutput(api, out);
      } finally {
        api.freeOutput(out);
      }
    },
    dispose() {
      if (ss) api.destroy(ss);
      ss = null;
    },
  };
}
