/**
 * Succeeded transcriptions written straight into a test service's store, with the segments, words and speakers a
 * diarized engine result has, so the transcript workbench's tests do not depend on what a recognizer hears.
 */
import type { JobResult } from '../../src-main/common/api-types.js';
import { newId } from '../../src-main/store/ids.js';
import type { Repositories } from '../../src-main/store/repositories.js';

export interface SpokenSegment {
  start: number;
  end: number;
  text: string;
  speaker?: string;
}

/** A verbose_json result: the segments, and each word timed evenly across its segment. */
export function diarizedResult(segments: readonly SpokenSegment[]): JobResult {
  const words = segments.flatMap((s) => {
    const tokens = s.text.split(' ');
    const step = (s.end - s.start) / tokens.length;
    return tokens.map((word, i) => ({ word, start: s.start + i * step, end: s.start + (i + 1) * step, ...(s.speaker ? { speaker: s.speaker } : {}) }));
  });
  return {
    text: segments.map((s) => s.text).join(' '),
    language: 'en',
    duration: segments[segments.length - 1]?.end ?? 0,
    segments: segments.map((s, id) => ({ id, start: s.start, end: s.end, text: s.text, ...(s.speaker ? { speaker: s.speaker } : {}) })),
    words,
  };
}

export interface InsertedJob {
  accountId: string;
  name?: string | null;
  result: JobResult | null;
  status?: 'succeeded' | 'failed' | 'running';
  product?: 'speech-to-text' | 'text-to-speech';
  createdAt?: string;
  finishedAt?: string;
  input?: Record<string, unknown>;
}

export function insertJob(repos: Repositories, job: InsertedJob): string {
  const id = newId('job');
  const at = job.createdAt ?? new Date().toISOString();
  const status = job.status ?? 'succeeded';
  repos.jobs.insert({
    id, account_id: job.accountId, product: job.product ?? 'speech-to-text', model_id: 'test-asr', name: job.name ?? null, language: null, status,
    error_code: null, error_message: null, params_json: '{}', input_json: JSON.stringify(job.input ?? {}), duration_seconds: '1.000',
    result_json: job.result ? JSON.stringify(job.result) : null, progress: null, batch_id: null, attempts: 0, cancel_requested: 0,
    pause_requested: 0, claimed_by: null, lease_expires_at: null, estimated_usd_micro: null, estimated_seconds: null, price_json: null, reserved_usd_micro: null, deadline_at: null, created_at: at, started_at: at,
    finished_at: status === 'running' ? null : (job.finishedAt ?? at), updated_at: at,
  });
  return id;
}
