/** Store rows → wire objects (common/api-types). Artifact URLs are computed here, at read time, from the base URL. */
import type { Artifact, Batch, BatchFile, Job, JobResult } from '../common/api-types.js';
import { countItems } from '../common/job-states.js';
import type { ArtifactRow } from '../store/artifacts-repo.js';
import type { BatchRow } from '../store/batches-repo.js';
import type { JobRow } from '../store/jobs-repo.js';
import type { Repositories } from '../store/repositories.js';

export function artifactUrl(baseUrl: string, row: ArtifactRow): string {
  return `${baseUrl.replace(/\/+$/, '')}/v1/artifacts/${row.token}/${encodeURIComponent(row.file_name)}`;
}

function toArtifact(baseUrl: string, row: ArtifactRow): Artifact {
  return {
    url: artifactUrl(baseUrl, row),
    content_type: row.content_type,
    bytes: row.bytes,
    duration_seconds: row.duration_seconds,
    sample_rate: row.sample_rate,
    channels: row.channels,
    expires_at: row.expires_at,
  };
}

export class Views {
  constructor(
    private readonly repos: Repositories,
    private readonly baseUrl: () => string,
  ) {}

  result(row: JobRow): JobResult | null {
    if (row.status !== 'succeeded' || row.result_json === null) return null;
    const result = JSON.parse(row.result_json) as JobResult;
    const artifacts = this.repos.artifacts.ofJob(row.id);
    if (artifacts.length > 0) {
      const base = this.baseUrl();
      result.artifacts = artifacts.map((a) => toArtifact(base, a));
    }
    return result;
  }

  job(row: JobRow): Job {
    return {
      id: row.id,
      object: 'job',
      product: row.product,
      status: row.status,
      model_id: row.model_id,
      name: row.name,
      language: row.language,
      duration_seconds: row.duration_seconds,
      result: this.result(row),
      error_code: row.error_code,
      error_message: row.error_message,
      created_at: row.created_at,
      started_at: row.started_at,
      finished_at: row.finished_at,
      progress: row.progress,
      batch_id: row.batch_id,
      ...(row.product === 'speech-to-text' ? { resumed_from: this.resumedFrom(row), transcript_revision: this.transcriptRevision(row) } : {}),
    };
  }

  /** The latest transcript revision of a succeeded transcription (0 until edited, also before revision 0 is stored). */
  private transcriptRevision(row: JobRow): number | null {
    if (row.status !== 'succeeded') return null;
    return this.repos.revisions.latestNumber(row.id) ?? 0;
  }

  /** Where the current (or last) run of a transcription continued from its checkpoint; null from the beginning. */
  private resumedFrom(row: JobRow): number | null {
    if (!row.started_at) return null;
    const seconds = this.repos.segments.resumedFrom(row.id, row.started_at);
    return seconds === null ? null : Math.round(seconds * 1000) / 1000;
  }

  batch(row: BatchRow): Batch {
    const items = this.repos.batches.items(row.id);
    const files: BatchFile[] = items.map((item) => {
      const job = item.job_id ? this.repos.jobs.get(item.job_id) : undefined;
      if (!job) {
        // Pending (jobs/batch-hold.ts): no job id yet; error_code says why it waits, as for a queued job.
        return { job_id: null, name: item.name, status: 'pending', result: null, error_code: row.pending_code, error_message: row.pending_message, progress: null };
      }
      return {
        job_id: item.job_id,
        name: item.name,
        status: job.status,
        result: this.result(job),
        error_code: job.error_code,
        error_message: job.error_message,
        progress: job.progress,
      };
    });
    const counts = countItems(files.map((f) => f.status));
    return {
      id: row.id,
      object: 'batch',
      product: row.product,
      status: row.status,
      model_id: row.model_id,
      file_count: row.file_count,
      ...counts,
      files,
      created_at: row.created_at,
      finished_at: row.finished_at,
    };
  }
}
