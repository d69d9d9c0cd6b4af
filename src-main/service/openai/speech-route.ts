/**
 * POST /v1/audio/speech, OpenAI-compatible (docs/openai-compatible.md). Each call is a text-to-speech job whose
 * worker synthesises sentence by sentence and streams the encoded bytes back as it goes (JobService.listenToAudio):
 * the answer starts with the first sentence's audio, long before the text is done, while the job still records the
 * whole file as its artifact, with its charge. `stream_format: "sse"` wraps the same bytes in `speech.audio.delta`
 * events (base64) and ends with `speech.audio.done`. A hosted model's job sends no audio while it runs: its artifact
 * is streamed once the job is done. With a voice-cloning model, `voice` names a saved cloned voice of the account and
 * the call is a voice-cloning job instead, streamed the same way (saved-speech-voice.ts).
 *
 * Until the first byte is ready nothing is sent, so every failure before it is an ordinary HTTP error; a failure
 * after it can only cut the body short (audio) or send an error event (sse). `instructions` is accepted and
 * ignored: on-device voices take no style prompt (as OpenAI's tts-1 ignores it).
 */
import { Hono, type Context } from 'hono';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { Job } from '../../common/api-types.js';
import { ApiError } from '../../common/errors.js';
import { OUTPUT_FORMATS, availableOutputFormats, outputContentType, type OutputFormat } from '../../engines/audio/stream-encoder.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import type { AudioChunk } from '../../jobs/engine/job-service-types.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';
import { readJsonObject } from '../http/json-body.js';
import { checkText, idempotencyOf, validateParams } from '../routes/submission.js';
import { eventStreamResponse } from './event-stream.js';
import { awaitJob, JOB_ID_HEADER, jobFailure } from './openai-job.js';
import type { OpenAiModels } from './openai-models.js';
import { clonedSpeechVoice, designedSpeechVoice, isCloningModel, type ClonedSpeechVoice } from './saved-speech-voice.js';

const SPEECH_FIELDS = ['model', 'input', 'voice', 'response_format', 'speed', 'instructions', 'stream_format'];
/** OpenAI's documented speed range; each model then has its own (on-device voices: 0.5–2). */
const OPENAI_SPEED = { min: 0.25, max: 4 } as const;
/** The rate OpenAI's audio comes at (its `pcm` is documented as 24 kHz mono s16le). */
export const SPEECH_SAMPLE_RATE = 24_000;

type Properties = Record<string, { enum?: unknown[]; minimum?: number; maximum?: number } | undefined>;

function speechParams(def: ModelDefinition, voiceParams: Record<string, unknown>, format: OutputFormat, speed: number | undefined): Record<string, unknown> {
  const props = (def.paramsSchema.properties as Properties | undefined) ?? {};
  const params: Record<string, unknown> = { ...voiceParams };
  const formats = props.output_format?.enum;
  if (formats && !formats.includes(format)) {
    throw new ApiError('invalid_request', `model ${def.id} makes ${formats.join(', ')}, not ${format}`, { param: 'response_format' });
  }
  if (props.output_format) params.output_format = format;
  else if (format !== 'mp3') throw new ApiError('invalid_request', `model ${def.id} does not choose its output format`, { param: 'response_format' });
  if (props.output_sample_rate && format !== 'opus') params.output_sample_rate = SPEECH_SAMPLE_RATE;
  if (props.output_channels) params.output_channels = 1;
  if (speed !== undefined && speed !== 1) {
    const range = props.speed;
    if (!range) throw new ApiError('invalid_request', `model ${def.id} speaks at one speed only`, { param: 'speed' });
    if ((range.minimum !== undefined && speed < range.minimum) || (range.maximum !== undefined && speed > range.maximum)) {
      throw new ApiError('invalid_request', `model ${def.id} speaks at speed ${range.minimum ?? 0}–${range.maximum ?? '∞'} (got ${speed})`, { param: 'speed' });
    }
    params.speed = speed;
  }
  return params;
}

function readFormat(body: Record<string, unknown>): OutputFormat {
  const format = body.response_format ?? 'mp3';
  if (typeof format !== 'string' || !(OUTPUT_FORMATS as readonly string[]).includes(format)) {
    throw new ApiError('invalid_request', `response_format must be one of ${OUTPUT_FORMATS.join(', ')}`, { param: 'response_format' });
  }
  if (!availableOutputFormats().includes(format as OutputFormat)) {
    throw new ApiError('invalid_request', `${format} needs ffmpeg, which is not installed on this machine; it can make ${availableOutputFormats().join(', ')}`, {
      param: 'response_format',
    });
  }
  return format as OutputFormat;
}

function readSpeed(body: Record<string, unknown>): number | undefined {
  const speed = body.speed;
  if (speed === undefined || speed === null) return undefined;
  if (typeof speed !== 'number' || !(speed >= OPENAI_SPEED.min && speed <= OPENAI_SPEED.max)) {
    throw new ApiError('invalid_request', `speed must be a number from ${OPENAI_SPEED.min} to ${OPENAI_SPEED.max}`, { param: 'speed' });
  }
  return speed;
}

/**
 * Collects a job's audio as it is made and hands it out in order: a crashed run is retried from its start, so bytes
 * already handed out are skipped (by offset) rather than sent twice. A relay that starts listening after the job's
 * first bytes were made hands out nothing (`any` stays false): the route sends the finished file instead.
 */
class AudioRelay {
  private sent = 0;
  private joinedLate = false;
  private readonly waiting: Uint8Array[] = [];
  private wake: (() => void) | null = null;
  private markStarted: () => void = () => {};
  /** Resolves with the first byte. */
  readonly started = new Promise<void>((resolve) => (this.markStarted = resolve));
  readonly stop: () => void;

  constructor(deps: AppDeps, jobId: string) {
    this.stop = deps.jobs.listenToAudio(jobId, (chunk) => this.onChunk(chunk));
  }

  private onChunk(chunk: AudioChunk): void {
    if (this.joinedLate) return;
    if (chunk.offset > this.sent) {
      // The first bytes went out before this relay listened (a request replayed under its Idempotency-Key while the
      // job speaks, or one whose awaits let the run start first): the answer is the whole file once the job ends.
      this.joinedLate = true;
      this.markStarted();
      return;
    }
    const end = chunk.offset + chunk.bytes.length;
    if (end <= this.sent) return;
    this.waiting.push(chunk.bytes.subarray(Math.max(0, this.sent - chunk.offset)));
    this.sent = end;
    this.markStarted();
    this.wake?.();
  }

  get any(): boolean {
    return this.sent > 0;
  }

  take(): Uint8Array[] {
    return this.waiting.splice(0);
  }

  /** Resolves when more audio arrived (at once if some waits). */
  more(): Promise<void> {
    if (this.waiting.length > 0) return Promise.resolve();
    return new Promise<void>((resolve) => (this.wake = resolve)).finally(() => (this.wake = null));
  }
}

async function artifactOf(deps: AppDeps, job: Job): Promise<{ path: string; contentType: string } | null> {
  const artifact = (await deps.store.repos.artifacts.ofJob(job.id))[0];
  // With object storage the worker put it in the bucket: fetched into this node's cache (stored-files.ts).
  return artifact && !artifact.deleted_at ? { path: await deps.files.local(artifact.path), contentType: artifact.content_type } : null;
}

/** The id a `voice` field names (a string, or OpenAI's `{id}` object form). */
function voiceId(voice: unknown): unknown {
  return typeof voice === 'object' && voice !== null && !Array.isArray(voice) ? (voice as { id?: unknown }).id : voice;
}

async function speak(c: Context<AppEnv>, deps: AppDeps, models: OpenAiModels): Promise<Response> {
  const owner = c.get('owner');
  const body = await readJsonObject(c);
  const unknown = Object.keys(body).find((k) => !SPEECH_FIELDS.includes(k));
  if (unknown) throw new ApiError('unsupported_param', `Unrecognized request argument supplied: ${unknown}`, { param: unknown });
  const def = await models.resolve('speech', body.model);
  let text: string;
  try {
    text = checkText(deps, def, body.input, 'input');
  } catch (error) {
    throw error instanceof ApiError ? new ApiError(error.code, error.message, { param: 'input' }) : error;
  }
  const format = readFormat(body);
  const speed = readSpeed(body);
  if (body.instructions !== undefined && body.instructions !== null && typeof body.instructions !== 'string') {
    throw new ApiError('invalid_request', 'instructions must be a string', { param: 'instructions' });
  }
  const streamFormat = body.stream_format ?? 'audio';
  if (streamFormat !== 'audio' && streamFormat !== 'sse') throw new ApiError('invalid_request', 'stream_format must be audio or sse', { param: 'stream_format' });
  // A voice-cloning model speaks a saved cloned voice as a voice-cloning job; a text-to-speech model a saved designed
  // voice by its id, else an OpenAI voice or one of the model's (saved-speech-voice.ts, docs/voices.md).
  const cloned: ClonedSpeechVoice | null = isCloningModel(def) ? await clonedSpeechVoice(deps, owner.accountId, def, voiceId(body.voice)) : null;
  let created: { job: Job; replayed: boolean };
  const product = cloned ? 'voice-cloning' : 'text-to-speech';
  try {
    const designedVoice = cloned ? undefined : await designedSpeechVoice(deps, owner.accountId, def, voiceId(body.voice));
    const voice = cloned
      ? { ...cloned.voice, params: {} }
      : designedVoice
        ? { id: designedVoice.savedVoice!.id, name: designedVoice.savedVoice!.name, params: {} }
        : await models.voice(def, body.voice);
    const params = validateParams(deps, def, speechParams(def, voice.params, format, speed));
    const idem = idempotencyOf(c, { model: def.id, params, input: text, voice: voice.id, format, streamFormat });
    created = await deps.jobs.createJob(
      {
        accountId: owner.accountId,
        product,
        modelId: def.id,
        // Named by the job engine after the start of what is said (jobs/job-name.ts).
        name: null,
        language: null,
        params,
        input: { text, ...(designedVoice ? { designedVoice } : {}), ...(cloned ? cloned.input : {}) },
      },
      idem,
    );
  } catch (error) {
    await cloned?.discard();
    throw error;
  }
  const { job } = created;
  // A replayed request's job holds the recording copied the first time.
  if (created.replayed) await cloned?.discard();
  // Registered before the scheduler's next pass (createJob only asks for one), so no byte is missed.
  const relay = new AudioRelay(deps, job.id);
  const finished = awaitJob(c, deps, owner.accountId, product, job);
  finished.catch(() => undefined);
  const headers = { [JOB_ID_HEADER]: job.id };
  try {
    // Nothing is sent before the first byte: until then a failure is a proper HTTP error.
    await Promise.race([relay.started, finished]);
    if (!relay.any) {
      relay.stop();
      const done = await finished;
      if (!done) return c.body(null, 204);
      if (done.status !== 'succeeded') throw jobFailure(done);
      // Audio that never streamed (a hosted model, a replayed Idempotency-Key): the artifact, whole.
      const file = await artifactOf(deps, done);
      if (!file) throw new ApiError('conflict', `job ${done.id} succeeded but its audio file is gone (artifacts are kept one day)`);
      return sendFile(c, deps, headers, file, streamFormat);
    }
  } catch (error) {
    relay.stop();
    throw error;
  }
  const pump = async (emit: (bytes: Uint8Array) => void, signal: AbortSignal): Promise<void> => {
    try {
      let done: Job | null | undefined;
      while (done === undefined && !signal.aborted) {
        for (const bytes of relay.take()) emit(bytes);
        done = await Promise.race([finished, relay.more().then(() => undefined)]);
      }
      // Every chunk reaches the relay before the job settles (one ordered channel from the worker).
      for (const bytes of relay.take()) if (!signal.aborted) emit(bytes);
      if (done && done.status !== 'succeeded') throw jobFailure(done);
    } finally {
      relay.stop();
    }
  };
  if (streamFormat === 'sse') {
    return eventStreamResponse(
      headers,
      async (send, signal) => {
        await pump((bytes) => send({ type: 'speech.audio.delta', audio: Buffer.from(bytes).toString('base64') }), signal);
        if (!signal.aborted) send(speechDone());
      },
      deps.config.log,
    );
  }
  const gone = new AbortController();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      pump((bytes) => controller.enqueue(bytes), gone.signal).then(
        () => {
          if (!gone.signal.aborted) controller.close();
        },
        (error: unknown) => {
          // Past the first byte the status is sent: a failure can only cut the answer short.
          deps.config.log.info(`speech job ${job.id} failed mid-stream: ${error instanceof Error ? error.message : String(error)}`);
          if (!gone.signal.aborted) controller.error(error);
        },
      );
    },
    cancel() {
      gone.abort();
    },
  });
  const contentType = outputContentType(format, format === 'opus' ? 48_000 : SPEECH_SAMPLE_RATE, 1);
  return new Response(stream, { status: 200, headers: { 'Content-Type': contentType, ...headers } });
}

/** OpenAI's closing event; Voxdesk counts no tokens (the job's charge is in the ledger), so usage is zero. */
function speechDone(): Record<string, unknown> {
  return { type: 'speech.audio.done', usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 } };
}

function sendFile(c: Context<AppEnv>, deps: AppDeps, headers: Record<string, string>, file: { path: string; contentType: string }, streamFormat: string): Response {
  if (streamFormat === 'sse') {
    return eventStreamResponse(
      headers,
      async (send) => {
        for await (const chunk of createReadStream(file.path, { highWaterMark: 64 * 1024 })) send({ type: 'speech.audio.delta', audio: (chunk as Buffer).toString('base64') });
        send(speechDone());
      },
      deps.config.log,
    );
  }
  const body = Readable.toWeb(createReadStream(file.path)) as ReadableStream<Uint8Array>;
  return c.body(body, 200, { 'Content-Type': file.contentType, ...headers });
}

export function speechRoutes(deps: AppDeps, models: OpenAiModels): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post('/v1/audio/speech', (c) => speak(c, deps, models));
  return app;
}
