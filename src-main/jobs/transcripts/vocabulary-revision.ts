/**
 * The account's vocabulary at work on a finished transcription (issue 29.4, docs/transcripts.md#vocabulary):
 * - its **replacements** become revision 1 of every new transcript, made in the transaction that records revision 0,
 *   for every engine (PocketSphinx and hosted ones included) — an edit like any other, through the one rule of edits
 *   (transcript-edit.ts applyTranscriptPatch: unchanged words keep their times), so the engine's original stays as
 *   revision 0 and the replacements can be taken back by editing, as any edit can;
 * - its **hotwords** go with new jobs on models that can be biased (sherpa-onnx transducers), when the request named
 *   no hotwords of its own: in the job's input (EngineInput.vocabularyHotwords), so that the engine uses the ones its
 *   model can spell and leaves the others out instead of failing the job on a word the account added for another.
 */
import { applyReplacements, type Vocabulary } from '../../common/vocabulary.js';
import type { RevisionSegment, SegmentPatch } from '../../common/transcript-types.js';
import type { EngineInput } from '../../engines/engine-types.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import type { JobRow } from '../../store/jobs-repo.js';
import type { StoreRepos } from '../../store/store.js';
import { applyTranscriptPatch } from './transcript-edit.js';
import type { RevisionBody } from './transcript-original.js';

/**
 * Inside the transaction that recorded a transcription's revision 0: revision 1 with the account's replacements made,
 * when they change any segment. Answers whether a revision was made.
 */
export async function applyVocabulary(repos: StoreRepos, job: JobRow, at: string): Promise<boolean> {
  const vocabulary = await repos.vocabulary.get(job.account_id);
  if (!vocabulary?.replacements.length) return false;
  const base = await repos.revisions.latest(job.id);
  if (!base || base.revision !== 0) return false;
  const before: RevisionBody = { speakers: JSON.parse(base.speakers_json) as RevisionBody['speakers'], segments: JSON.parse(base.segments_json) as RevisionSegment[] };
  const changes: SegmentPatch[] = [];
  for (const segment of before.segments) {
    const text = applyReplacements(segment.text, vocabulary.replacements);
    if (text !== segment.text) changes.push({ index: segment.index, text });
  }
  if (changes.length === 0) return false;
  const after = applyTranscriptPatch(before, { base_revision: 0, segments: changes });
  // Replacing a word is no reading of the segment: what the guardrails doubted stays marked.
  for (const [i, segment] of after.segments.entries()) if (before.segments[i]!.flags) segment.flags = before.segments[i]!.flags;
  return repos.revisions.insertNext({
    job_id: job.id,
    revision: 1,
    speakers_json: JSON.stringify(after.speakers),
    segments_json: JSON.stringify(after.segments),
    created_at: at,
  });
}

/** Whether a model takes hotwords: its params schema has a `hotwords` string that may be non-empty. */
export function takesHotwords(definition: Pick<ModelDefinition, 'paramsSchema'>): boolean {
  const property = (definition.paramsSchema.properties as Record<string, { type?: unknown; maxLength?: unknown }> | undefined)?.hotwords;
  return property?.type === 'string' && property.maxLength !== 0;
}

/**
 * A new job's input with the account's hotwords, for a model that takes them, when the request gave no hotwords and
 * did not ask for greedy decoding (hotwords need modified_beam_search). Otherwise the input as given.
 */
export function inputWithHotwords(input: EngineInput, params: Record<string, unknown>, definition: Pick<ModelDefinition, 'paramsSchema'>, vocabulary: Vocabulary | undefined): EngineInput {
  if (!vocabulary?.hotwords.length || !takesHotwords(definition)) return input;
  if (params.hotwords !== undefined && params.hotwords !== '') return input;
  if (params.decoding_method === 'greedy_search') return input;
  return { ...input, vocabularyHotwords: [...vocabulary.hotwords] };
}
