/**
 * The typed boundary between the job engine and the engines. Engines run in worker processes (native inference can
 * crash its process); the job engine sends an EngineTask and receives progress, the measured duration, recognised
 * segments (checkpoints, committed as they arrive) and an EngineOutput or a typed failure.
 */
import type { JobResult } from '../common/api-types.js';
import type { Product } from '../common/products.js';
import type { KnownSpeaker } from '../common/speaker-matching.js';
import type { TranscriptPlan } from './asr/transcript-assembly.js';
import type { RecognizedPiece } from './asr/transcript.js';
import type { VoiceRecipe } from './tts/design/voice-recipe.js';
import type { Log, LogFields, LogLevel } from '../common/log.js';
import type { JobErrorCode } from '../common/errors.js';

/** Every engine a worker can load. Each kind maps to one module in engine-registry.ts. */
export type EngineKind =
  | 'espeak'
  | 'sherpa-tts'
  | 'sherpa-asr'
  | 'pocketsphinx'
  | 'rnnoise'
  | 'gtcrn'
  | 'dpdfnet'
  | 'sherpa-separation'
  | 'sherpa-cloning'
  | 'test'; // only registered when VOXDESK_TEST_ENGINES=1 (tests crash/hang/sleep a worker on purpose)

export interface EngineInput {
  /** text-to-speech, voice-design (description), cloning/continuation (text to speak). */
  text?: string;
  /** Audio products: path of the uploaded file inside the data dir. */
  filePath?: string;
  /** The uploaded file's original name. */
  fileName?: string;
  /** A watched recording: the folder `filePath` must lie in, reached without symbolic links (audio/input-file.ts). */
  fileRoot?: string;
  /** voice-cloning: the reference recording (voice-continuation's recording is `filePath`). */
  referencePath?: string;
  /** voice-cloning / voice-continuation: the words said in the reference, when the request gave them (reference_text). */
  referenceText?: string;
  /**
   * voice-cloning / voice-continuation without referenceText: the recognizer chosen when the request was accepted
   * (the best installed speech-to-text model) that transcribes the reference in the worker (cloning/reference-transcript.ts).
   */
  transcriber?: ReferenceTranscriber;
  /** voice-design: the description of the voice to design (text is what it speaks). */
  description?: string;
  /**
   * voice-design, and text to speech in a saved designed voice: the voice to speak with, designed by the service from
   * the request (engines/tts/design/voice-recipe.ts) and blended by the worker (design/blended-voices.ts).
   */
  designedVoice?: DesignedVoiceInput;
  /**
   * Speech to text of a stretch of `filePath` only (re-transcribing a range, jobs/transcripts/retranscription.ts):
   * the worker cuts it out before the engine runs (audio/range-cut.ts), so the engine, its checkpoints and the
   * billed duration all see a recording of the range's length, with times counted from `start`.
   */
  range?: AudioRange;
  /** Re-transcribing a range: the transcription whose transcript the result replaces that range of. */
  retranscribes?: string;
  /**
   * The account's vocabulary hotwords (jobs/transcripts/vocabulary-revision.ts), for a model that takes hotwords and
   * a request that named none: the engine uses those its model can spell, and leaves the others out.
   */
  vocabularyHotwords?: string[];
}

/** A speech-to-text model's engine settings, copied into a voice job so its worker can transcribe the reference. */
export interface ReferenceTranscriber {
  modelId: string;
  engine: EngineKind;
  engineConfig: Record<string, unknown>;
  /** Params with the model's defaults (validated against its schema when the request was accepted). */
  params: Record<string, unknown>;
}

/** A designed voice as a job carries it: the recipe, the description's unknown words, the saved voice it is. */
export interface DesignedVoiceInput {
  recipe: VoiceRecipe;
  unknownWords: string[];
  savedVoice: { id: string; name: string } | null;
}

/** Seconds into a recording, start < end, in whole milliseconds. */
export interface AudioRange {
  start: number;
  end: number;
}

export interface EngineTask {
  jobId: string;
  product: Product;
  modelId: string;
  engine: EngineKind;
  /** Engine-specific settings from the model definition: model file paths, family, sample rate… (JSON only). */
  engineConfig: Record<string, unknown>;
  /** Params validated against the model's schema, defaults applied. */
  params: Record<string, unknown>;
  input: EngineInput;
  /**
   * A directory owned by this job: engines write artifacts here. The worker process empties and creates it (0700)
   * before the engine runs, and removes it again when the run produced no artifact (worker-main.ts), so the job
   * engine's thread does no file-system work per job.
   */
  workDir: string;
  /**
   * Someone is listening to this job's audio as it is made (a streamed HTTP answer): engines that can stream send
   * their encoded output through EngineContext.audio. Unset = nobody listens; engines skip the messages.
   */
  streamAudio?: boolean;
  /**
   * Speech to text: the last segment the job committed in an earlier run. The engine continues after it (segment
   * index + 1, audio from `seconds`), recognising nothing before it again. Absent or null: from the start.
   */
  resumeAfter?: ResumePoint | null;
  /**
   * Speech to text with speaker_diarization: the account's speaker profiles when the job was handed to the worker
   * (docs/speakers.md). Diarized speakers whose voice matches one take its name; absent or [] = none to match.
   */
  knownSpeakers?: KnownSpeaker[];
}

/** Where a checkpointed transcription continues: after segment `index`, from `seconds` into the recording. */
export interface ResumePoint {
  index: number;
  seconds: number;
  /** The language the recognizer reported for that segment, when it reports one (a Whisper run keeps it). */
  language?: string | null;
}

/**
 * One recognised segment, sent to the job engine as soon as it is recognised and committed there with the job's
 * progress (a checkpoint). Indexes count from 0 over the whole recording and are the same in every run.
 */
export interface RecognizedSegment extends RecognizedPiece {
  index: number;
  /**
   * Seconds into the recording where a later run resumes after this segment (its ResumePoint.seconds). Default `end`;
   * PocketSphinx resumes after the silence that closed the utterance, past its last word.
   */
  resumeAt?: number;
}

export interface ArtifactFile {
  /** Absolute path of a file the engine wrote inside workDir. */
  path: string;
  contentType: string;
  durationSeconds: number | null;
  sampleRate: number | null;
  channels: number | null;
}

export interface EngineOutput {
  /** Transcript fields etc.; artifact URLs are added by the job engine from `artifacts`. */
  result: Omit<JobResult, 'artifacts'>;
  artifacts: ArtifactFile[];
  /** The billing basis: input audio length (STT, audio products) or generated audio length (TTS). */
  durationSeconds: number;
  /**
   * Speech to text that committed its segments (ctx.segment): the job engine builds the job's `result` from every
   * committed segment with this plan (a resumed run's own `result` holds only what it recognised).
   */
  transcript?: TranscriptPlan;
}

export interface EngineContext {
  /** Aborted when the job is cancelled; engines check it between segments/blocks. */
  signal: AbortSignal;
  /** 0..1, where the engine can tell. */
  progress(fraction: number): void;
  /** Audio length measured before heavy work (STT: before recognition) — sets duration_seconds early. */
  measured(seconds: number): void;
  /**
   * A recognised segment and the progress it brings, committed together by the job engine (the worker relays it).
   * Speech-to-text engines call it when present; callers that keep no checkpoints (tests, the remote runner, other
   * products) leave it out.
   */
  segment?(segment: RecognizedSegment, progress: number): void;
  /** Diagnostic line for the worker log (never stdout). */
  log: Log;
  /**
   * Only when the task has streamAudio: the artifact's bytes in order, as they are encoded (the same bytes the file
   * gets, without late header fix-ups).
   */
  audio?(bytes: Uint8Array): void;
  /**
   * Another engine of this worker, loaded once and kept (the cloning engine transcribes its reference with a
   * speech-to-text one). Given by the worker; absent where no second engine can run (warming, tests of one engine).
   */
  engine?(kind: EngineKind): Promise<Engine>;
}

export interface Engine {
  run(task: EngineTask, ctx: EngineContext): Promise<EngineOutput>;
  /**
   * Optional: do a tiny piece of real work (a word of speech) so the first job runs at warm speed — compiled code,
   * loaded voice data. Called once when a worker warms the engine ahead of jobs (WorkerPoolOptions.warmEngines).
   * `signal` aborts when the worker is given a job: stop soon (between pieces of work) so the job does not wait.
   */
  warm?(signal?: AbortSignal): Promise<void> | void;
  /** Free native resources; called when the worker is recycled. */
  dispose?(): void;
}

/** An engine module (one per EngineKind) default-exports a factory; workers cache engines per config. */
export type EngineFactory = () => Engine | Promise<Engine>;

/** Messages parent → worker process. */
export type ParentMessage =
  | { type: 'run'; task: EngineTask }
  | { type: 'cancel'; jobId: string }
  /** Sent once after start: load (and warm) these engines before any job asks; the worker answers `warmed`. */
  | { type: 'warm'; engines: EngineKind[] }
  /** Several of the above, in order, in one message (tasks claimed in the same scheduling pass). */
  | { type: 'batch'; messages: ParentMessage[] };

/** Messages worker process → parent. */
export type WorkerMessage =
  | { type: 'ready'; pid: number }
  /** The engines of the `warm` message are loaded (those that failed to load are left to the first job to report). */
  | { type: 'warmed' }
  | { type: 'progress'; jobId: string; progress: number }
  | { type: 'measured'; jobId: string; durationSeconds: number }
  | { type: 'audio'; jobId: string; bytes: Uint8Array }
  | { type: 'segment'; jobId: string; segment: RecognizedSegment; progress: number }
  | { type: 'done'; jobId: string; output: EngineOutput }
  | { type: 'failed'; jobId: string; code: JobErrorCode; message: string }
  /** A line of the worker's Log, written by the pool into the service's (scope: the job id, when the line is a job's). */
  | { type: 'log'; level: LogLevel; scope: string | null; message: string; fields?: LogFields };
