/**
 * How each finished transcript starts now, for the Jobs list. A job's `result` stays the engine's output, so once
 * someone edits the transcript (in this window, another window, or a script through the API) `result.text` is stale;
 * the job's `transcript_revision` says so. Revisions this page loads or saves are noted as they happen; for the
 * others the latest revision is read once per revision, and only for the rows on screen.
 */
import type { ApiClient } from '$common/api-client.js';
import type { Job } from '$common/api-types.js';
import { getTranscript } from './transcript-api.js';
import { contextKey } from '../shared/context.js';
import { transcriptStart } from './transcript-editor.svelte.js';

/** The segments a preview keeps: more text than any list row shows. */
const PREVIEW_SEGMENTS = 12;

interface Known {
  revision: number;
  text: string;
}

export class TranscriptPreviews {
  #known = $state.raw<Record<string, Known>>({});
  /** Job id → the revision being read, or the one whose read failed (not asked again until a newer one exists). */
  // A scratch map, never rendered.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #asked = new Map<string, number>();

  constructor(private readonly api: () => ApiClient) {}

  /** Remembers how a revision starts, unless a newer one of the same transcript is already known. */
  note(transcript: { job_id: string; revision: number; segments: readonly { text: string }[] }): void {
    const current = this.#known[transcript.job_id];
    if (current && current.revision > transcript.revision) return;
    const text = transcript.segments
      .slice(0, PREVIEW_SEGMENTS)
      .map((s) => s.text.trim())
      .filter(Boolean)
      .join(' ');
    if (current?.revision === transcript.revision && current.text === text) return;
    this.#known = { ...this.#known, [transcript.job_id]: { revision: transcript.revision, text } };
  }

  /** The start of a succeeded transcription's latest known text ('' for other jobs): what its list row shows. */
  startOf(job: Job): string {
    if (job.product !== 'speech-to-text' || job.status !== 'succeeded') return '';
    return transcriptStart(this.#known[job.id]?.text ?? job.result?.text);
  }

  /**
   * Reads the latest revision of each job whose list text is stale: edited (`transcript_revision` above 0) and newer
   * than what this page knows. Each revision is asked for once; a failed read leaves the engine's text.
   */
  refresh(jobs: readonly Job[]): void {
    for (const job of jobs) {
      const revision = job.transcript_revision ?? 0;
      if (revision === 0 || (this.#known[job.id]?.revision ?? -1) >= revision || (this.#asked.get(job.id) ?? -1) >= revision) continue;
      this.#asked.set(job.id, revision);
      getTranscript(this.api(), job.id).then(
        (transcript) => this.note(transcript),
        () => undefined, // deleted meanwhile, or offline: the row keeps the engine's text
      );
    }
  }
}

/** One per page (the Jobs list and every open transcript share what they learnt), provided through context. */
export const PREVIEWS = contextKey<TranscriptPreviews>('transcript previews');
