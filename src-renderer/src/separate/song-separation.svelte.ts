/**
 * The Separate action's state: one recording sent to /v1/stem-separation with the chosen model, held until its job
 * ends (the service holds the POST), then followed by polling if the hold window ended first. Its stems are the
 * job's artifacts, named by result.stems.
 */
import type { Artifact, Job } from '$common/api-types.js';
import { isTerminal } from '$common/job-states.js';
import type { ApiClient } from '$common/api-client.js';

export interface SeparatedStemView {
  /** vocals, accompaniment (result.stems), or the artifact's position when the job does not say. */
  stem: string;
  artifact: Artifact;
}

/** The stems of a finished separation job, in artifact order. */
export function stemsOf(job: Job | null): SeparatedStemView[] {
  const artifacts = job?.result?.artifacts ?? [];
  return artifacts.map((artifact, i) => ({ stem: job?.result?.stems?.[i] ?? String(i + 1), artifact }));
}

export class SongSeparation {
  file = $state<File | null>(null);
  job = $state<Job | null>(null);
  running = $state(false);
  error = $state<unknown>(null);
  readonly #api: () => ApiClient;

  constructor(api: () => ApiClient) {
    this.#api = api;
  }

  get stems(): SeparatedStemView[] {
    return this.job?.status === 'succeeded' ? stemsOf(this.job) : [];
  }

  choose(file: File | null): void {
    this.file = file;
    this.job = null;
    this.error = null;
  }

  /** Sends the chosen file; resolves when its job has ended (or failed to start). */
  async run(model: string, pollMs = 1000): Promise<void> {
    if (!this.file || this.running) return;
    this.running = true;
    this.error = null;
    this.job = null;
    try {
      const api = this.#api();
      let job = await api.separate({ file: this.file, filename: this.file.name }, { model, name: this.file.name });
      this.job = job;
      while (!isTerminal(job.status)) {
        await new Promise((resolve) => setTimeout(resolve, pollMs));
        job = await api.getJob('stem-separation', job.id);
        this.job = job;
      }
    } catch (err) {
      this.error = err;
    } finally {
      this.running = false;
    }
  }
}
