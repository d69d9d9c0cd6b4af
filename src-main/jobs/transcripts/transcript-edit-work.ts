/**
 * One edit's work on the stored text of a revision: parse, apply the patch (transcript-edit.ts), serialise. The work
 * grows with the transcript — a ten-hour one, or one of a few segments of thousands of words, is megabytes of JSON
 * and tens of milliseconds at each step — so a large revision is edited on a thread of its own
 * (transcript-edit-thread.ts, shared fairly between accounts), and a small one, the everyday case, right here.
 * Either way the same function runs, and only the segments whose text changed come back as objects (for the search
 * index); the revision itself stays text.
 */
import type { RevisionSegment, TranscriptPatch } from '../../common/transcript-types.js';
import { scriptEntry } from '../../platform/script-entry.js';
import { FairThread } from '../../engines/worker/fair-thread.js';
import { applyTranscriptPatch } from './transcript-edit.js';
import type { RevisionBody } from './transcript-original.js';

/** Revisions whose segments take more characters than this are edited on the edit thread. */
export const INLINE_EDIT_MAX_CHARS = 200_000;
/** The edit thread stops after this long without work. */
export const EDIT_THREAD_IDLE_MS = 60_000;
export const EDIT_FAILURE = 'the edit could not be made';

export interface EditRequest {
  speakersJson: string;
  segmentsJson: string;
  patch: TranscriptPatch;
}

export interface EditAnswer {
  speakersJson: string;
  segmentsJson: string;
  /** The segments whose text the edit changed, as they are now. */
  changed: RevisionSegment[];
}

/** The edit itself: 400 invalid_request when the patch names what the revision does not have. */
export function editRevisionText(request: EditRequest): EditAnswer {
  const before: RevisionBody = { speakers: JSON.parse(request.speakersJson) as RevisionBody['speakers'], segments: JSON.parse(request.segmentsJson) as RevisionSegment[] };
  const after = applyTranscriptPatch(before, request.patch);
  return {
    speakersJson: JSON.stringify(after.speakers),
    segmentsJson: JSON.stringify(after.segments),
    changed: after.segments.filter((s, i) => s.text !== before.segments[i]!.text),
  };
}

/** Edits revisions: small ones at once, large ones on the edit thread in the account's turn. */
export class RevisionEditor {
  private readonly thread = new FairThread<EditRequest, EditAnswer>({ entry: scriptEntry('transcript-edit-thread', import.meta.url), failure: EDIT_FAILURE, idleMs: EDIT_THREAD_IDLE_MS });

  edit(accountId: string, request: EditRequest): Promise<EditAnswer> {
    if (request.segmentsJson.length <= INLINE_EDIT_MAX_CHARS) {
      try {
        return Promise.resolve(editRevisionText(request));
      } catch (error) {
        return Promise.reject(error as Error);
      }
    }
    return this.thread.run(accountId, request);
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
