/**
 * POST /v1/audio/transcriptions and POST /v1/audio/translations, OpenAI-compatible (docs/openai-compatible.md).
 * Each call is a speech-to-text job; the answer is the transcript in the requested response_format, or with
 * `stream=true` Server-Sent Events `transcript.text.delta` as segments are committed … `transcript.text.done`.
 *
 * Parameters follow OpenAI's documented handling: `prompt`, `temperature`, `chunking_strategy` and
 * `include[]=logprobs` are accepted and ignored (on-device recognisers here have no such knobs; OpenAI ignores them
 * too for models without them); what would mislead if ignored is refused with a 400 naming the parameter: word
 * timestamps from a model without word timings, a language the model does not recognise, a translation by a
 * model that can neither translate nor only hears English, speaker labels from a model without diarization.
 */
import { Hono, type Context } from 'hono';
import type { Job } from '../../common/api-types.js';
import { ApiError } from '../../common/errors.js';
import {
  OPENAI_CONTENT_TYPES,
  OPENAI_RESPONSE_FORMATS,
  openAiTranscript,
  type OpenAiGranularity,
  type OpenAiResponseFormat,
  type OpenAiTask,
} from '../../common/openai-transcript.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';
import { audioSeconds, idempotencyOf, validateParams } from '../routes/submission.js';
import { eventStreamResponse } from './event-stream.js';
import { checkFileLimit, readOpenAiForm, single, type OpenAiForm } from './openai-form.js';
import { awaitJob, JOB_ID_HEADER, jobFailure } from './openai-job.js';
import { recognizerAbilities, type OpenAiModels } from './openai-models.js';
import { streamTranscript } from './transcript-stream.js';
import { compressionRatio } from '../../engines/asr/segment-guardrails.js';

/** Form fields (extensions) that set the speaker count of diarized_json, passed on as the native params of the same names. */
const SPEAKER_COUNT_FIELDS = ['num_speakers', 'min_speakers', 'max_speakers'] as const;
const TRANSCRIPTION_FIELDS = [
  'model',
  'language',
  'prompt',
  'response_format',
  'temperature',
  'timestamp_granularities',
  'stream',
  'chunking_strategy',
  'include',
  'known_speaker_names',
  'known_speaker_references',
  // Voxdesk extensions with diarized_json (docs/speakers.md): how many speakers to find.
  ...SPEAKER_COUNT_FIELDS,
] as const;
const TRANSLATION_FIELDS = ['model', 'prompt', 'response_format', 'temperature'] as const;

interface TranscriptionRequest {
  format: OpenAiResponseFormat;
  granularities: OpenAiGranularity[];
  language: string | null;
  stream: boolean;
  /** num_speakers / min_speakers / max_speakers as sent (whole numbers; their ranges are the model schema's). */
  speakerCount: Record<string, number>;
}

function readRequest(form: OpenAiForm, task: OpenAiTask): TranscriptionRequest {
  const format = (single(form, 'response_format') ?? 'json') as OpenAiResponseFormat;
  if (!OPENAI_RESPONSE_FORMATS.includes(format) || (task === 'translate' && format === 'diarized_json')) {
    const allowed = OPENAI_RESPONSE_FORMATS.filter((f) => task === 'transcribe' || f !== 'diarized_json');
    throw new ApiError('invalid_request', `response_format must be one of ${allowed.join(', ')}`, { param: 'response_format' });
  }
  const granularities = (form.fields.get('timestamp_granularities') ?? []).flatMap((g) => g.split(',').map((s) => s.trim()).filter(Boolean));
  for (const g of granularities) {
    if (g !== 'word' && g !== 'segment') throw new ApiError('invalid_request', `timestamp_granularities takes word and/or segment, not "${g}"`, { param: 'timestamp_granularities' });
  }
  if (granularities.includes('word') && format !== 'verbose_json') {
    throw new ApiError('invalid_request', 'response_format must be set verbose_json to use timestamp granularities', { param: 'timestamp_granularities' });
  }
  const temperature = single(form, 'temperature');
  if (temperature !== undefined && !(Number(temperature) >= 0 && Number(temperature) <= 1 && temperature.trim() !== '')) {
    throw new ApiError('invalid_request', 'temperature must be a number between 0 and 1', { param: 'temperature' });
  }
  const stream = single(form, 'stream');
  if (stream !== undefined && stream !== 'true' && stream !== 'false') throw new ApiError('invalid_request', 'stream must be true or false', { param: 'stream' });
  const include = form.fields.get('include') ?? [];
  const unknownInclude = include.find((i) => i !== 'logprobs');
  if (unknownInclude) throw new ApiError('invalid_request', `include takes logprobs, not "${unknownInclude}"`, { param: 'include' });
  if (form.fields.has('known_speaker_names') || form.fields.has('known_speaker_references')) {
    throw new ApiError('invalid_request', 'known speaker references are not supported here: speakers are labelled A, B, … in order of appearance', {
      param: form.fields.has('known_speaker_names') ? 'known_speaker_names' : 'known_speaker_references',
    });
  }
  const speakerCount: Record<string, number> = {};
  for (const field of SPEAKER_COUNT_FIELDS) {
    const value = single(form, field);
    if (value === undefined) continue;
    if (!/^\s*\d+\s*$/.test(value)) throw new ApiError('invalid_request', `${field} must be a whole number of speakers`, { param: field });
    if (format !== 'diarized_json') throw new ApiError('invalid_request', `${field} goes with response_format diarized_json (speakers are only found then)`, { param: field });
    speakerCount[field] = Number(value);
  }
  const language = single(form, 'language')?.trim().toLowerCase() || null;
  return { format, granularities: granularities as OpenAiGranularity[], language, stream: stream === 'true', speakerCount };
}

/** The native params that make the model answer this request, or a 400 naming what it cannot do. */
function nativeParams(def: ModelDefinition, request: TranscriptionRequest, task: OpenAiTask): Record<string, unknown> {
  const abilities = recognizerAbilities(def);
  const schema = (def.paramsSchema.properties as Record<string, unknown> | undefined) ?? {};
  const params: Record<string, unknown> = {};
  if ('response_format' in schema) params.response_format = 'verbose_json';
  const wantWords = request.granularities.includes('word');
  if (wantWords && !abilities.words) {
    throw new ApiError('invalid_request', `model ${def.id} gives no word timestamps; ask for segment, or use a model with word timings (every on-device recogniser has them)`, {
      param: 'timestamp_granularities',
    });
  }
  if ('timestamp_granularity' in schema) params.timestamp_granularity = wantWords ? 'word' : 'segment';
  if (request.language) {
    const base = request.language.split(/[-_]/)[0]!;
    const known = abilities.languages ?? def.languages;
    const code = known.includes(request.language) ? request.language : known.includes(base) ? base : null;
    if (!code) {
      throw new ApiError('invalid_request', `model ${def.id} does not recognise language "${request.language}" (it knows ${known.join(', ') || 'no declared language'})`, { param: 'language' });
    }
    if (abilities.languages) params.language = code;
  }
  if (task === 'translate' && !abilities.englishOnly) {
    if (!abilities.translate) {
      throw new ApiError('invalid_request', `model ${def.id} cannot translate into English; use whisper-1 (set in Settings) or a Whisper model such as whisper-small`, { param: 'model' });
    }
    params.task = 'translate';
  }
  if (request.format === 'diarized_json') {
    if (!abilities.diarization) {
      throw new ApiError('invalid_request', `model ${def.id} cannot label speakers: install the speaker models (voxdesk models pull titanet-small-en and pyannote-segmentation-3-0) and use a model that offers speaker_diarization`, {
        param: 'response_format',
      });
    }
    params.speaker_diarization = true;
    Object.assign(params, request.speakerCount);
  }
  return params;
}

async function transcribe(c: Context<AppEnv>, deps: AppDeps, models: OpenAiModels, task: OpenAiTask): Promise<Response> {
  const owner = c.get('owner');
  const form = await readOpenAiForm(c.req.raw, deps, owner.accountId, task === 'transcribe' ? TRANSCRIPTION_FIELDS : TRANSLATION_FIELDS);
  let job: Job;
  let request: TranscriptionRequest;
  try {
    request = readRequest(form, task);
    const def = await models.resolve(task === 'transcribe' ? 'transcription' : 'translation', single(form, 'model'));
    checkFileLimit(form, deps, def);
    const params = validateParams(deps, def, nativeParams(def, request, task));
    const idem = idempotencyOf(c, { model: def.id, params, file: form.file.sha256, request });
    // Priced at the recording's stated length when accepted, like the native route (the spending cap reserves it).
    const [estimatedSeconds] = await audioSeconds(deps, def, params, [form.file.path]);
    const created = await deps.jobs.createJob(
      {
        accountId: owner.accountId,
        product: 'speech-to-text',
        modelId: def.id,
        name: form.file.originalName || null,
        language: request.language,
        params,
        input: { filePath: form.file.path, fileName: form.file.originalName },
        estimatedSeconds,
      },
      idem,
    );
    if (created.replayed) await form.discard();
    job = created.job;
  } catch (error) {
    await form.discard();
    throw error;
  }
  const options = { task, granularities: request.granularities, language: request.language, compressionRatio };
  const headers = { [JOB_ID_HEADER]: job.id };
  if (request.stream) {
    return eventStreamResponse(
      headers,
      (send, gone) => streamTranscript(deps, owner.accountId, job, send, AbortSignal.any([gone, c.req.raw.signal])),
      deps.config.log,
    );
  }
  const done = await awaitJob(c, deps, owner.accountId, 'speech-to-text', job);
  if (!done) return c.body(null, 204);
  if (done.status !== 'succeeded') throw jobFailure(done);
  const body = openAiTranscript(done.result ?? {}, request.format, options);
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  if (typeof body === 'string') return c.body(body, 200, { 'Content-Type': OPENAI_CONTENT_TYPES[request.format] });
  return c.json(body);
}

export function transcriptionRoutes(deps: AppDeps, models: OpenAiModels): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post('/v1/audio/transcriptions', (c) => transcribe(c, deps, models, 'transcribe'));
  app.post('/v1/audio/translations', (c) => transcribe(c, deps, models, 'translate'));
  return app;
}
