/** Store rows → wire objects (common/api-types). Artifact URLs are computed here, at read time, from the base URL. */
import type { Artifact, Batch, BatchFile, Job, JobResult } from '../../common/api-types.js';
import { countItems } from '../../common/job-states.js';
import type { ArtifactRow } from '../../store/artifacts-repo.js';
import type { BatchRow } from '../../store/batches-repo.js';
import type { JobRow } from '../../store/jobs-repo.js';
import type { StoreRepos } from '../../store/store.js';

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

/** Views read through the store's repositories (outside any transaction: what is committed). */
export class Views {
  constructor(
    private readonly repos: Pick<StoreRepos, 'artifacts' | 'revisions' | 'segments' | 'batches' | 'jobs'>,
    private readonly baseUrl: () => string,
  ) {}

  async result(row: JobRow): Promise<JobResult | null> {
    if (row.status !== 'succeeded' || row.result_json === null) return null;
    const result = JSON.parse(row.result_json) as JobResult;
    const artifacts = await this.repos.artifacts.ofJob(row.id);
    if (artifacts.length > 0) {
      const base = this.baseUrl();
      result.artifacts = artifacts.map((a) => toArtifact(base, a));
    }
    return result;
  }

  async job(row: JobRow): Promise<Job> {
    const result = await this.result(row);
    const transcription = row.product === 'speech-to-text' ? { resumed_from: await this.resumedFrom(row), transcript_revision: await this.transcriptRevision(row) } : {};
    return {
      id: row.id,
      object: 'job',
      product: row.product,
      status: row.status,
      model_id: row.model_id,
      name: row.name,
      language: row.language,
      duration_seconds: row.duration_seconds,
      result,
      error_code: row.error_code,
      error_message: row.error_message,
      created_at: row.created_at,
      started_at: row.started_at,
      finished_at: row.finished_at,
      progress: row.progress,
      batch_id: row.batch_id,
      ...transcription,
    };
  }

  /** The latest transcript revision of a succeeded transcription (0 until edited, also before revision 0 is stored). */
  private async transcriptRevision(row: JobRow): Promise<number | null> {
    if (row.status !== 'succeeded') return null;
    return (await this.repos.revisions.latestNumber(row.id)) ?? 0;
  }

  /** Where the current (or last) run of a transcription continued from its checkpoint; null from the beginning. */
  private async resumedFrom(row: JobRow): Promise<number | null> {
    if (!row.started_at) return null;
    const seconds = await this.repos.segments.resumedFrom(row.id, row.started_at);
    return seconds === null ? null : Math.round(seconds * 1000) / 1000;
  }

  async batch(row: BatchRow): Promise<Batch> {
    const items = await this.repos.batches.items(row.id);
    const files: BatchFile[] = [];
    for (const item of items) {
      const job = item.job_id ? await this.repos.jobs.get(item.job_id) : undefined;
      if (!job) {
        // Pending (jobs/engine/batch-hold.ts): no job id yet; error_code says why it waits, as for a queued job.
        files.push({ job_id: null, name: item.name, status: 'pending', result: null, error_code: row.pending_code, error_message: row.pending_message, progress: null });
        continue;
      }
      files.push({
        job_id: item.job_id,
        name: item.name,
        status: job.status,
        result: await this.result(job),
        error_code: job.error_code,
        error_message: job.error_message,
        progress: job.progress,
      });
    }
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
