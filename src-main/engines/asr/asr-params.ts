/**
 * Reads a speech-to-text job's params inside the worker. The job service has already validated them against the
 * model's schema; they are checked again here because an invalid Whisper language makes sherpa-onnx EXIT the
 * process (../shared/models/tiny/README.md) — that must never be reachable from a request.
 */
import { JobError } from '../../common/errors.js';
import type { ResponseFormat, TimestampGranularity } from './transcript.js';

export interface AsrJobParams {
  responseFormat: ResponseFormat;
  granularity: TimestampGranularity;
  /** 'auto' or a language code from the model's list. */
  language: string;
  task: 'transcribe' | 'translate';
  useItn: boolean;
  speakerDiarization: boolean;
  numSpeakers: number | undefined;
}

export interface AsrParamRules {
  /** Codes the model accepts; [] = the engine takes no language (any value but auto/one of these is rejected). */
  languages: string[];
  wordTimings: boolean;
  translate: boolean;
  diarization: boolean;
}

function invalid(message: string): JobError {
  return new JobError('invalid_params', message);
}

function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalid(`${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
  }
  return value as T;
}

export function readAsrParams(params: Record<string, unknown>, rules: AsrParamRules): AsrJobParams {
  const granularities: TimestampGranularity[] = rules.wordTimings ? ['word', 'segment', 'none'] : ['segment', 'none'];
  const language = oneOf('language', params.language, ['auto', ...rules.languages], 'auto');
  const task = oneOf('task', params.task, rules.translate ? ['transcribe', 'translate'] : ['transcribe'], 'transcribe');
  const speakerDiarization = params.speaker_diarization ?? false;
  if (typeof speakerDiarization !== 'boolean') throw invalid('speaker_diarization must be true or false');
  if (speakerDiarization && !rules.diarization) {
    throw invalid('speaker_diarization needs the speaker-embedding and pyannote segmentation models: install them first');
  }
  const numSpeakers = params.num_speakers;
  if (numSpeakers !== undefined && (typeof numSpeakers !== 'number' || !Number.isInteger(numSpeakers) || numSpeakers < 1 || numSpeakers > 20)) {
    throw invalid('num_speakers must be an integer from 1 to 20');
  }
  const useItn = params.use_itn ?? true;
  if (typeof useItn !== 'boolean') throw invalid('use_itn must be true or false');
  return {
    responseFormat: oneOf('response_format', params.response_format, ['json', 'verbose_json'], 'verbose_json'),
    granularity: oneOf('timestamp_granularity', params.timestamp_granularity, granularities, granularities[0]!),
    language,
    task,
    useItn,
    speakerDiarization,
    numSpeakers: numSpeakers as number | undefined,
  };
}
