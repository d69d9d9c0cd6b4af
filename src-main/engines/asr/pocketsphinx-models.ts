/** The catalogue row of the PocketSphinx engine: available only when Debian's program and model are installed. */
import type { ModelSourceContext } from '../model-sources.js';
import type { ModelDefinition, ModelSource } from '../model-definition.js';
import { NO_LIMITS } from '../model-definition.js';
import { findPocketsphinx, findPocketsphinxAsync, POCKETSPHINX_MISSING, type PocketsphinxInstall } from './pocketsphinx-install.js';
import { MAX_FILE_BYTES } from '../../common/limits.js';
import { punctuateParam } from './asr-params-schema.js';

export const POCKETSPHINX_MODEL_ID = 'pocketsphinx-en-us';

/** Params the PocketSphinx engine honours (spec defaults: verbose_json, word timings; speaker labels only off). */
export const POCKETSPHINX_PARAMS_SCHEMA = {
  type: 'object',
  properties: {
    response_format: {
      type: 'string',
      enum: ['json', 'verbose_json'],
      default: 'verbose_json',
      description: 'json: text only; verbose_json: also language, duration, segments and words.',
    },
    timestamp_granularity: {
      type: 'string',
      enum: ['word', 'segment', 'none'],
      default: 'word',
      description: 'Timings in verbose_json.',
    },
    language: { type: 'string', enum: ['auto', 'en'], default: 'auto', description: 'English only.' },
    speaker_diarization: {
      type: 'boolean',
      enum: [false],
      default: false,
      description: 'Only false here: PocketSphinx labels no speakers; a sherpa-onnx recognizer does, with the speaker models installed.',
    },
  },
  additionalProperties: false,
} as const;

/**
 * `vadModel`: the Silero VAD model's path when installed; with it the model can run live (VAD endpointing).
 * `install`: where PocketSphinx was found (default: looked for now). `punctuation`: the punctuation model's path when
 * installed: PocketSphinx gives lower-case words only, so `punctuate` (on by default) adds marks and casing with it.
 */
export function pocketsphinxDefinition(
  vadModel: string | null = null,
  install: PocketsphinxInstall | null = findPocketsphinx(),
  punctuation: string | null = null,
): ModelDefinition {
  const schema = structuredClone(POCKETSPHINX_PARAMS_SCHEMA) as unknown as { properties: Record<string, unknown> };
  Object.assign(schema.properties, punctuateParam(punctuation !== null));
  return {
    id: POCKETSPHINX_MODEL_ID,
    name: 'PocketSphinx (US English)',
    description:
      'CMU PocketSphinx from the system packages: English only, word timings, fast on any CPU but inaccurate ' +
      '(about 50% word error rate on read speech). Recognises the whole recording as one stream.',
    capability: 'asr',
    products: ['speech-to-text'],
    provider: 'local',
    engine: 'pocketsphinx',
    engineConfig: install ? { ...install, ...(vadModel ? { vadModel } : {}), ...(punctuation ? { punctuation } : {}) } : {},
    languages: ['en'],
    live: install !== null && vadModel !== null,
    acceptsSpeed: false,
    limits: { ...NO_LIMITS, max_file_bytes: MAX_FILE_BYTES },
    paramsSchema: schema as unknown as ModelDefinition['paramsSchema'],
    status: install ? 'available' : 'unavailable',
    reason: install ? null : POCKETSPHINX_MISSING,
    download: null,
  };
}

/**
 * How long one look for the PocketSphinx install is trusted, in ms. The program and model are system files that apt
 * installs or removes outside the app, with nothing to tell us, and looking (a PATH search and three file checks)
 * costs 0.1–1 ms, up to 8 ms on a busy machine: too much for a catalogue read. So the first read looks (at start), and
 * a read after recheckMs starts a look on libuv's pool and answers with what it knew; the look's answer is seen by
 * the reads after it ends. A job whose files vanished in between fails with a clear engine error. The environment
 * (VOXDESK_POCKETSPHINX, VOXDESK_POCKETSPHINX_MODEL_DIR, PATH) is read again with them: it is set before the process
 * starts. The VAD and punctuation models come from the model manager and are compared on every read, so installing or
 * removing one shows at once. Default 5 s.
 */
export const POCKETSPHINX_RECHECK_MS = 5_000;

export interface PocketsphinxSourceOptions {
  /** Default POCKETSPHINX_RECHECK_MS. */
  recheckMs?: number;
  /** Default Date.now (tests move time). */
  now?: () => number;
}

function sameInstall(a: PocketsphinxInstall | null, b: PocketsphinxInstall | null): boolean {
  return a === b || (!!a && !!b && a.program === b.program && a.hmm === b.hmm && a.lm === b.lm && a.dict === b.dict);
}

/** The PocketSphinx row's source; `looked()` resolves when no look for the install is under way (tests). */
export interface PocketsphinxModelSource extends ModelSource {
  looked(): Promise<void>;
}

export function pocketsphinxModelSource(ctx: ModelSourceContext, options: PocketsphinxSourceOptions = {}): PocketsphinxModelSource {
  const recheckMs = options.recheckMs ?? POCKETSPHINX_RECHECK_MS;
  const now = options.now ?? Date.now;
  let version = 0;
  let checkedAt = -Infinity;
  let looking: Promise<void> | undefined;
  let vad: string | null | undefined;
  let punctuation: string | null | undefined;
  let install: PocketsphinxInstall | null = null;
  let rows: ModelDefinition[] = [];
  const update = (vadNow: string | null, found: PocketsphinxInstall | null): void => {
    const punctuationNow = ctx.punctuationModel?.() ?? null;
    if (vadNow === vad && punctuationNow === punctuation && sameInstall(found, install) && version > 0) return;
    vad = vadNow;
    punctuation = punctuationNow;
    install = found;
    rows = [pocketsphinxDefinition(vad, found, punctuation)];
    version += 1;
  };
  const refresh = (): void => {
    const at = now();
    if (version === 0) {
      checkedAt = at;
      update(ctx.vadModel?.() ?? null, findPocketsphinx());
      return;
    }
    if (!looking && at - checkedAt >= recheckMs) {
      checkedAt = at;
      looking = findPocketsphinxAsync()
        .then((found) => update(ctx.vadModel?.() ?? null, found))
        .catch(() => undefined) // the last answer stays; the next look tries again
        .finally(() => (looking = undefined));
    }
    update(ctx.vadModel?.() ?? null, install);
  };
  return {
    name: 'pocketsphinx',
    list: () => {
      refresh();
      return rows;
    },
    version: () => {
      refresh();
      return version;
    },
    looked: () => looking ?? Promise.resolve(),
  };
}
