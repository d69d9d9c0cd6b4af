/**
 * The segments of a transcription as they are committed (GET /v1/speech-to-text/{id}/segments?after=N), for the
 * transcript that fills in while the job runs. The page's job poll drives it: the view calls `sync(job)` whenever the
 * polled job changes (each committed segment moves the job's progress), and only the segments after the last one
 * held are fetched. What is held is only ever appended to, so the text a person is reading never moves.
 */
import type { Job, SegmentView } from '$common/api-types.js';
import type { ServiceHost } from '../shared/service/service-host.js';

/** Segments fetched per request. Default 200 (the route's default page). */
const PAGE = 200;

export class LiveSegments {
  segments = $state.raw<SegmentView[]>([]);
  /** The job these segments belong to. */
  jobId = $state<string | null>(null);
  /** Every segment is held and the job succeeded. */
  complete = $state(false);
  #after: number | null = null;
  #seen = '';
  #fetching = false;
  #again = false;

  constructor(private readonly host: ServiceHost) {}

  /** Follows `job` (another job starts over); fetches what was committed since the last call. */
  sync(job: Job | null | undefined): void {
    if (!job || job.product !== 'speech-to-text') return this.#reset(null);
    if (job.id !== this.jobId) this.#reset(job.id);
    const print = `${job.status}:${job.progress}:${job.started_at}`;
    if (print === this.#seen) return;
    this.#seen = print;
    void this.#fetch();
  }

  #reset(jobId: string | null): void {
    this.jobId = jobId;
    this.segments = [];
    this.complete = false;
    this.#after = null;
    this.#seen = '';
  }

  async #fetch(): Promise<void> {
    if (this.#fetching) {
      this.#again = true;
      return;
    }
    this.#fetching = true;
    try {
      do {
        this.#again = false;
        const jobId = this.jobId;
        if (!jobId) return;
        for (;;) {
          const page = await this.host.api.listSegments(jobId, this.#after, PAGE);
          if (jobId !== this.jobId) break; // another job was chosen meanwhile
          if (page.data.length) this.segments = [...this.segments, ...page.data];
          this.complete = page.complete;
          const moved = page.next_after !== this.#after;
          this.#after = page.next_after;
          if (!moved || page.complete) break;
        }
      } while (this.#again);
    } catch {
      // The job poll shows the service's state; the next change tries again.
      this.#seen = '';
    } finally {
      this.#fetching = false;
    }
  }
}
