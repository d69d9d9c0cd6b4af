/**
 * An edit of a transcript (PATCH /v1/speech-to-text/{id}/transcript): the body checked field by field, then applied
 * to the base revision to give the next one. Word times follow one rule: a word the edit did not change keeps its
 * times; words it changed or added share, in proportion to their length, the time of the words they replace (or,
 * where nothing was replaced, the gap between the kept words around them, within the segment). Which words were
 * kept is found by word-alignment.ts, within a bounded amount of work per edit.
 */
import { ApiError } from '../../common/errors.js';
import { MAX_SEGMENT_TEXT_CHARS, MAX_SPEAKER_NAME_CHARS, MAX_TRANSCRIPT_CHANGES } from '../../common/limits.js';
import type { RevisionSegment, RevisionWord, SegmentPatch, SpeakerMerge, TranscriptPatch } from '../../common/transcript-types.js';
import { spreadWords, tokensOf, type RevisionBody } from './transcript-original.js';
import { AlignmentBudget, alignWords } from './word-alignment.js';
import { refuseUnknownFields } from '../../common/unknown-fields.js';

const PATCH_FIELDS = ['base_revision', 'segments', 'speakers', 'merge_speakers', 'not_speakers'] as const;
const SEGMENT_FIELDS = ['index', 'text', 'speaker'] as const;
const MERGE_FIELDS = ['from', 'into'] as const;
/** Speaker keys: what engines write ("SPEAKER_0") and what a person adds for a new speaker. */
// Engine keys (SPEAKER_0) and a meeting capture's (You, Other side, Other side 2): words joined by single spaces.
const SPEAKER_KEY = /^(?=.{1,64}$)[A-Za-z0-9_.-]+( [A-Za-z0-9_.-]+)*$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

const bad = (message: string): ApiError => new ApiError('invalid_request', message);

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}


function speakerKey(value: unknown, field: string): string {
  if (typeof value !== 'string' || !SPEAKER_KEY.test(value)) {
    throw bad(`${field} must be a speaker key: 1–64 letters, digits, '_', '.' or '-', words joined by single spaces (like "SPEAKER_0" or "Other side 2")`);
  }
  return value;
}

function speakerName(value: unknown, field: string): string {
  if (typeof value !== 'string') throw bad(`${field} must be a string (the speaker's name) or null (remove the speaker)`);
  const name = value.replace(/\s+/g, ' ').trim();
  if (name === '' || name.length > MAX_SPEAKER_NAME_CHARS || CONTROL.test(value)) {
    throw bad(`${field} must be a name of 1–${MAX_SPEAKER_NAME_CHARS} characters without control characters`);
  }
  return name;
}

function segmentPatch(value: unknown, i: number): SegmentPatch {
  const where = `segments[${i}]`;
  if (!isObject(value)) throw bad(`${where} must be an object with index and text and/or speaker`);
  refuseUnknownFields(value, SEGMENT_FIELDS, `${where}.`, 'a segment');
  const { index, text, speaker } = value;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) throw bad(`${where}.index must be a whole number ≥ 0`);
  if (text === undefined && speaker === undefined) throw bad(`${where} changes nothing: give text and/or speaker`);
  const patch: SegmentPatch = { index };
  if (text !== undefined) {
    if (typeof text !== 'string' || text.length > MAX_SEGMENT_TEXT_CHARS || CONTROL.test(text)) {
      throw bad(`${where}.text must be a string of at most ${MAX_SEGMENT_TEXT_CHARS} characters without control characters`);
    }
    patch.text = text;
  }
  if (speaker !== undefined) patch.speaker = speaker === null ? null : speakerKey(speaker, `${where}.speaker`);
  return patch;
}

/** The body of a PATCH, checked: 400 invalid_request (or unsupported_param for an unknown field) naming the field. */
export function parseTranscriptPatch(body: Record<string, unknown>): TranscriptPatch {
  refuseUnknownFields(body, PATCH_FIELDS, '', 'a transcript edit');
  const base = body.base_revision;
  if (typeof base !== 'number' || !Number.isInteger(base) || base < 0) {
    throw bad('base_revision must be the whole number of the revision the edit was made on (GET …/transcript tells latest_revision)');
  }
  const patch: TranscriptPatch = { base_revision: base };
  if (body.segments !== undefined) {
    if (!Array.isArray(body.segments) || body.segments.length > MAX_TRANSCRIPT_CHANGES) {
      throw bad(`segments must be an array of at most ${MAX_TRANSCRIPT_CHANGES} changes`);
    }
    patch.segments = body.segments.map(segmentPatch);
    const seen = new Set<number>();
    for (const s of patch.segments) {
      if (seen.has(s.index)) throw bad(`segments names index ${s.index} twice`);
      seen.add(s.index);
    }
  }
  if (body.speakers !== undefined) {
    if (!isObject(body.speakers) || Object.keys(body.speakers).length > MAX_TRANSCRIPT_CHANGES) {
      throw bad('speakers must be an object mapping speaker keys to names (or null to remove one)');
    }
    const speakers: Record<string, string | null> = {};
    for (const [key, name] of Object.entries(body.speakers)) {
      speakerKey(key, `speakers key ${JSON.stringify(key.slice(0, 80))}`);
      speakers[key] = name === null ? null : speakerName(name, `speakers.${key}`);
    }
    patch.speakers = speakers;
  }
  if (body.merge_speakers !== undefined) {
    if (!Array.isArray(body.merge_speakers) || body.merge_speakers.length > MAX_TRANSCRIPT_CHANGES) {
      throw bad('merge_speakers must be an array of {"from", "into"}');
    }
    patch.merge_speakers = body.merge_speakers.map((value: unknown, i): SpeakerMerge => {
      if (!isObject(value)) throw bad(`merge_speakers[${i}] must be an object {"from", "into"}`);
      refuseUnknownFields(value, MERGE_FIELDS, `merge_speakers[${i}].`, 'a merge');
      const merge = { from: speakerKey(value.from, `merge_speakers[${i}].from`), into: speakerKey(value.into, `merge_speakers[${i}].into`) };
      if (merge.from === merge.into) throw bad(`merge_speakers[${i}] merges ${merge.from} into itself`);
      return merge;
    });
  }
  if (body.not_speakers !== undefined) {
    if (!Array.isArray(body.not_speakers) || body.not_speakers.length > MAX_TRANSCRIPT_CHANGES) {
      throw bad('not_speakers must be an array of speaker keys whose name is wrong (like ["SPEAKER_1"])');
    }
    patch.not_speakers = body.not_speakers.map((key: unknown, i) => speakerKey(key, `not_speakers[${i}]`));
    const named = patch.not_speakers.find((key) => patch.speakers?.[key] !== undefined);
    if (named !== undefined) throw bad(`${named} is both named (speakers) and said not to be its name (not_speakers): give one of them`);
  }
  if (!patch.segments?.length && !patch.speakers && !patch.merge_speakers?.length && !patch.not_speakers?.length) {
    throw bad('the edit changes nothing: give segments, speakers, merge_speakers and/or not_speakers');
  }
  return patch;
}

/** New words for a segment's new text: unchanged words keep their times (see the docblock). */
export function retimeWords(
  segment: { start: number; end: number },
  old: readonly RevisionWord[],
  text: string,
  budget: AlignmentBudget = new AlignmentBudget(),
): RevisionWord[] {
  const tokens = tokensOf(text);
  const out: RevisionWord[] = [];
  let removed: RevisionWord[] = [];
  let added: string[] = [];
  let oldAt = 0;
  const flush = (nextStart: number): void => {
    if (added.length > 0) {
      const from = removed.length > 0 ? removed[0]!.start : (out[out.length - 1]?.end ?? segment.start);
      const to = removed.length > 0 ? removed[removed.length - 1]!.end : nextStart;
      out.push(...spreadWords(added, from, Math.max(from, to)));
    }
    removed = [];
    added = [];
  };
  let newAt = 0;
  for (const change of alignWords(old.map((w) => w.word), tokens, budget)) {
    if (change.kind === 'removed') {
      removed.push(...old.slice(oldAt, oldAt + change.count));
      oldAt += change.count;
    } else if (change.kind === 'added') {
      added.push(...tokens.slice(newAt, newAt + change.count));
      newAt += change.count;
    } else {
      const kept = old.slice(oldAt, oldAt + change.count);
      flush(kept[0]!.start);
      out.push(...kept.map((w) => ({ ...w })));
      oldAt += change.count;
      newAt += change.count;
    }
  }
  flush(segment.end);
  return out;
}

/** Applies a checked patch to the base revision: speakers, then merges, then segments. 400 when it names what is not there. */
export function applyTranscriptPatch(base: RevisionBody, patch: TranscriptPatch): RevisionBody {
  const speakers = { ...base.speakers };
  const segments = base.segments.map((s) => ({ ...s }));
  const budget = new AlignmentBudget();
  const used = (key: string): boolean => segments.some((s) => s.speaker === key);
  for (const [key, name] of Object.entries(patch.speakers ?? {})) {
    if (name !== null) {
      speakers[key] = name;
    } else if (key in speakers) {
      if (used(key) && !patch.merge_speakers?.some((m) => m.from === key)) {
        throw bad(`speaker ${key} still has segments: merge it into another speaker (merge_speakers) or give its segments another speaker first`);
      }
      delete speakers[key];
    } else {
      throw bad(`speakers names ${key}, which this transcript does not have`);
    }
  }
  for (const [i, key] of (patch.not_speakers ?? []).entries()) {
    if (!(key in speakers) || speakers[key] === key) throw bad(`not_speakers[${i}] names ${key}, which has no name in this transcript to take back`);
    // The name comes off this recording's speaker; its voice becomes one the profile must not match (speaker-library.ts).
    speakers[key] = key;
  }
  for (const [i, { from, into }] of (patch.merge_speakers ?? []).entries()) {
    if (!(from in speakers) && !used(from)) throw bad(`merge_speakers[${i}].from names ${from}, which this transcript does not have`);
    if (!(into in speakers)) throw bad(`merge_speakers[${i}].into names ${into}, which this transcript does not have`);
    for (const segment of segments) if (segment.speaker === from) segment.speaker = into;
    delete speakers[from];
  }
  for (const change of patch.segments ?? []) {
    const segment: RevisionSegment | undefined = segments[change.index];
    if (!segment) throw bad(`segments names index ${change.index}; this transcript has segments 0–${segments.length - 1}`);
    if (change.speaker !== undefined) {
      if (change.speaker !== null && !(change.speaker in speakers)) {
        throw bad(`segment ${change.index}: speaker ${change.speaker} is not in the speakers map (add it with "speakers": {"${change.speaker}": "Name"})`);
      }
      segment.speaker = change.speaker;
    }
    if (change.text !== undefined) {
      const text = change.text.replace(/\s+/g, ' ').trim();
      if (text !== segment.text) {
        segment.words = retimeWords(segment, segment.words, text, budget);
        segment.text = text;
        // A person has read and corrected it: no longer doubtful.
        delete segment.flags;
      }
    }
  }
  return { speakers, segments };
}

/** Half a millisecond: times are stored in whole milliseconds, so this tells "at the edge" from "past it". */
const EDGE = 0.0005;

/**
 * A range of the transcript recognised again (re-transcribing a range, retranscription.ts): the segments lying
 * within [start, end] make way for `replacement` (times already counted from the recording's start), which keeps
 * the speaker of the old segment it overlaps most (a range is recognised without diarization). Every segment is
 * numbered again in time order, so the indexes after the range move when it has more or fewer segments than before.
 * Answers the new body and the first index whose segment changed (the search rows from there on are rewritten).
 */
export function replaceRange(base: RevisionBody, range: { start: number; end: number }, replacement: readonly RevisionSegment[]): { body: RevisionBody; firstChanged: number } {
  const inside = (s: { start: number; end: number }): boolean => s.start >= range.start - EDGE && s.end <= range.end + EDGE;
  const replaced = base.segments.filter(inside);
  const speakerFor = (s: { start: number; end: number }): string | null => {
    let best: { speaker: string | null; overlap: number } = { speaker: null, overlap: 0 };
    for (const old of replaced) {
      const overlap = Math.min(old.end, s.end) - Math.max(old.start, s.start);
      if (overlap > best.overlap) best = { speaker: old.speaker, overlap };
    }
    return best.speaker;
  };
  const fresh = replacement.map((s) => ({ ...s, speaker: speakerFor(s), words: s.words.map((w) => ({ ...w })) }));
  const kept = base.segments.filter((s) => !inside(s)).map((s) => ({ ...s }));
  const before = kept.filter((s) => s.start < range.start);
  const after = kept.filter((s) => s.start >= range.start);
  const segments = [...before, ...fresh, ...after].map((s, index) => ({ ...s, index }));
  const speakers = { ...base.speakers };
  for (const s of segments) if (s.speaker !== null && !(s.speaker in speakers)) speakers[s.speaker] = s.speaker;
  return { body: { speakers, segments }, firstChanged: before.length };
}
