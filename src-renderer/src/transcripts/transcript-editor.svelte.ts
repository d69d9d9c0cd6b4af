/**
 * The transcript workbench's work, apart from its view: the latest revision of one job's transcript, editing a
 * segment in place, naming, merging and setting speakers, and undoing the last save. Every change is one PATCH with
 * the revision it was made on (`base_revision`), so two windows editing the same transcript never overwrite each
 * other silently: a 409 `conflict` reloads the latest revision and keeps what the person typed as the open draft,
 * with a note saying it was edited elsewhere. Undo PATCHes the previous values back (a new revision, never a rewind:
 * the service keeps every revision).
 */
import { ApiClientError } from '$common/api-client.js';
import { errorText } from '../shared/error-messages.js';
import { t } from '../shared/i18n/i18n.svelte.js';
import type { ServiceHost } from '../shared/service/service-host.js';
import { getTranscript, patchTranscript, type RevisionSegment, type SegmentPatch, type Transcript, type TranscriptPatch } from './transcript-api.js';

/** The kinds of change Ctrl+Z takes back. */
export type UndoKind = 'edit' | 'rename' | 'merge' | 'speaker' | 'naming';

/** What one save changed, as the PATCH that puts it back. */
interface UndoStep {
  label: UndoKind;
  segments?: SegmentPatch[];
  speakers?: Record<string, string | null>;
}

/** Saves that Ctrl+Z can take back, newest last. Default 50: a long editing session, bounded memory. */
const UNDO_DEPTH = 50;

/** The id given to the speaker of a transcript that had none, as diarization numbers its first speaker. */
export const FIRST_SPEAKER = 'SPEAKER_0';

/** Why a save met a newer revision: the typed text is kept to save again, or (a name, a merge) is to be redone. */
export type Conflict = 'keep_draft' | 'redo';

/** "SPEAKER_0" → "Speaker 1" while nobody named it (the service maps an unnamed key to itself); a name wins. */
export function speakerLabel(transcript: Pick<Transcript, 'speakers'> | null, id: string | null): string {
  if (!id) return '';
  const named = transcript?.speakers[id];
  if (named && named !== id) return named;
  const n = /^SPEAKER_(\d+)$/.exec(id);
  return n ? t('transcript.speakerNumber', { number: Number(n[1]) + 1 }) : id;
}

/** Speaker ids in order of first appearance, then those only in the names map. */
export function speakerIds(transcript: Transcript | null): string[] {
  if (!transcript) return [];
  // A scratch set, never rendered.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  const ids = new Set<string>();
  for (const s of transcript.segments) if (s.speaker) ids.add(s.speaker);
  return [...ids];
}

/** The opening words of a transcript, for lists (the Jobs table): whole words up to `max` characters. */
export function transcriptStart(text: string | null | undefined, max = 90): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max + 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : flat.slice(0, max)).replace(/[\s,;:.-]+$/, '')}…`;
}

export class TranscriptEditor {
  transcript = $state.raw<Transcript | null>(null);
  #loadFailure = $state.raw<unknown>(null);
  /** Segment index being edited, and its draft. */
  editing = $state<number | null>(null);
  draft = $state('');
  saving = $state(false);
  /** Set when a save met a newer revision (someone edited elsewhere); cleared by the next successful save. */
  conflict = $state<Conflict | null>(null);
  #undo = $state.raw<UndoStep[]>([]);

  constructor(
    private readonly host: ServiceHost,
    readonly jobId: string,
    /** Told of every revision this editor loads or makes (the Jobs list shows the start of the latest). */
    private readonly onRevision: (t: Transcript) => void = () => undefined,
  ) {}

  /** Why the transcript could not be loaded, in words in the interface's language; null when it was. */
  get loadError(): string | null {
    return this.#loadFailure ? errorText(this.#loadFailure) : null;
  }

  /** What the conflict note says (the person's language). */
  get conflictNote(): string | null {
    return this.conflict === 'keep_draft' ? t('transcript.conflictKeep') : this.conflict === 'redo' ? t('transcript.conflictRedo') : null;
  }

  get canUndo(): boolean {
    return this.#undo.length > 0 && !this.saving;
  }

  /** What Ctrl+Z would take back (edit, rename, merge, speaker, naming), for the Undo button. */
  get undoLabel(): UndoKind | null {
    return this.#undo.at(-1)?.label ?? null;
  }

  segment(index: number): RevisionSegment | undefined {
    return this.transcript?.segments.find((s) => s.index === index);
  }

  async load(signal?: AbortSignal): Promise<void> {
    try {
      this.#accept(await getTranscript(this.host.api, this.jobId, signal));
      this.#loadFailure = null;
    } catch (err) {
      if (signal?.aborted) return;
      this.#loadFailure = err;
    }
  }

  begin(index: number): void {
    const seg = this.segment(index);
    if (!seg || this.saving) return;
    this.editing = index;
    this.draft = seg.text;
  }

  cancel(): void {
    this.editing = null;
    this.draft = '';
  }

  /** Saves the open draft (Enter). Unchanged text just closes the editor; an empty one removes the words. */
  async commit(): Promise<boolean> {
    const index = this.editing;
    const seg = index === null ? undefined : this.segment(index);
    if (index === null || !seg) return false;
    const text = this.draft.replace(/\s+/g, ' ').trim();
    if (text === seg.text.trim() && !this.conflict) {
      this.cancel();
      return true;
    }
    return this.#save({ segments: [{ index, text }] }, { label: 'edit', segments: [{ index, text: seg.text }] }, { keepDraft: true });
  }

  /** Names a speaker everywhere it speaks. */
  renameSpeaker(id: string, name: string): Promise<boolean> {
    const trimmed = name.trim();
    if (!trimmed || !this.transcript) return Promise.resolve(false);
    const before = this.transcript.speakers[id] ?? id;
    return this.#save({ speakers: { [id]: trimmed } }, { label: 'rename', speakers: { [id]: before } });
  }

  /**
   * A transcript without speakers (the model does not tell them apart) gets one, named: the speaker of the sentences
   * given (those the person selected: one speaker, the others stay without one), or, when none are given, of every
   * segment (a recording of one voice). The name shows in the view and in every export.
   */
  nameOnlySpeaker(name: string, indexes: ReadonlySet<number> | null = null): Promise<boolean> {
    const trimmed = name.trim();
    if (!trimmed || !this.transcript || speakerIds(this.transcript).length) return Promise.resolve(false);
    const named = indexes?.size ? this.transcript.segments.filter((s) => indexes.has(s.index)) : this.transcript.segments;
    if (!named.length) return Promise.resolve(false);
    return this.#save(
      { segments: named.map((s) => ({ index: s.index, speaker: FIRST_SPEAKER })), speakers: { [FIRST_SPEAKER]: trimmed } },
      // Undone by taking the speaker off those segments (the service keeps a speaker with segments in its map).
      { label: 'naming', segments: named.map((s) => ({ index: s.index, speaker: null })) },
    );
  }

  /**
   * "Not X": the speaker's name comes off in this transcript (back to "Speaker N") and the account's speaker library
   * keeps this voice as one X must not be matched to again (docs/speakers.md). Undone by naming it X again.
   */
  notSpeaker(id: string): Promise<boolean> {
    const name = this.transcript?.speakers[id];
    if (!name || name === id) return Promise.resolve(false);
    return this.#save({ not_speakers: [id] }, { label: 'rename', speakers: { [id]: name } });
  }

  /** Every segment of `from` becomes `into`'s. */
  mergeSpeakers(from: string, into: string): Promise<boolean> {
    if (!this.transcript || from === into) return Promise.resolve(false);
    const moved = this.transcript.segments.filter((s) => s.speaker === from);
    if (!moved.length) return Promise.resolve(false);
    // Undone by bringing `from` back under its name and giving it its segments again.
    return this.#save(
      { merge_speakers: [{ from, into }] },
      { label: 'merge', speakers: { [from]: this.transcript.speakers[from] ?? from }, segments: moved.map((s) => ({ index: s.index, speaker: from })) },
    );
  }

  /** One segment said by another speaker. */
  setSpeaker(index: number, speaker: string): Promise<boolean> {
    const seg = this.segment(index);
    if (!seg || seg.speaker === speaker) return Promise.resolve(false);
    return this.#save({ segments: [{ index, speaker }] }, { label: 'speaker', segments: [{ index, speaker: seg.speaker }] });
  }

  /** Takes back the last save (Ctrl+Z) with a new revision holding the values from before it. */
  async undo(): Promise<boolean> {
    const step = this.#undo.at(-1);
    if (!step || this.saving || (!step.segments && !step.speakers)) return false;
    const done = await this.#save({ segments: step.segments, speakers: step.speakers }, null);
    if (done) this.#undo = this.#undo.slice(0, -1);
    return done;
  }

  async #save(change: Omit<TranscriptPatch, 'base_revision'>, undo: UndoStep | null, options: { keepDraft?: boolean } = {}): Promise<boolean> {
    if (!this.transcript || this.saving) return false;
    this.saving = true;
    const patch: TranscriptPatch = { base_revision: this.transcript.revision };
    if (change.segments?.length) patch.segments = change.segments;
    if (change.speakers && Object.keys(change.speakers).length) patch.speakers = change.speakers;
    if (change.merge_speakers?.length) patch.merge_speakers = change.merge_speakers;
    if (change.not_speakers?.length) patch.not_speakers = change.not_speakers;
    try {
      this.#accept(await patchTranscript(this.host.api, this.jobId, patch));
      this.conflict = null;
      if (options.keepDraft) this.cancel();
      if (undo && (undo.segments?.length || undo.speakers)) this.#undo = [...this.#undo, undo].slice(-UNDO_DEPTH);
      return true;
    } catch (err) {
      if (err instanceof ApiClientError && err.code === 'conflict') {
        // Someone saved a newer revision: show it, keep the person's draft open on top of it, and drop undo steps
        // (they were made against text that is no longer there).
        const draft = this.draft;
        const editing = this.editing;
        await this.load();
        this.#undo = [];
        const keep = options.keepDraft === true && editing !== null && this.segment(editing) !== undefined;
        this.conflict = keep ? 'keep_draft' : 'redo';
        if (keep) {
          this.editing = editing;
          this.draft = draft;
        }
      } else {
        this.host.toast(t('transcript.notSaved', { reason: errorText(err) }), 'error');
      }
      return false;
    } finally {
      this.saving = false;
    }
  }

  #accept(transcript: Transcript): void {
    this.transcript = transcript;
    this.onRevision(transcript);
  }
}
