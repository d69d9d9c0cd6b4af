/**
 * The recordings this page sent, by the job they became: the transcript of such a job plays from the person's own
 * file wherever it is opened (Transcribe, Jobs, a library search result), seeked to the moment asked for. The page
 * holds File references only (the browser reads them from disk when played); they last as long as the page.
 */
import { contextKey } from '../shared/context.js';

export class SessionRecordings {
  // Not rendered: looked up when a transcript opens.
  readonly #files = new Map<string, File>();

  remember(jobId: string, file: File): void {
    this.#files.set(jobId, file);
  }

  get(jobId: string | null | undefined): File | null {
    return (jobId && this.#files.get(jobId)) || null;
  }
}

/** One per page, provided through context by App.svelte. */
export const RECORDINGS = contextKey<SessionRecordings>('recordings of this page');
