/**
 * What an export is made from, kept as the store holds it — the latest revision's JSON, and the language and
 * duration of the engine's result — so that parsing it and laying it out (seconds for a ten-hour transcript) happen where the export is rendered, off
 * the service's thread (service/exports/export-renderer.ts), and `exportResult` turns it into the JobResult every
 * export format reads: the latest revision's text and words with its speakers' names.
 */
import type { JobResult } from '../../common/api-types.js';
import { fillersOf, isFiller, removeFillers } from '../../common/filler-words.js';
import type { RevisionSegment } from '../../common/transcript-types.js';
import type { RevisionBody } from './transcript-original.js';

export interface ExportParts {
  speakersJson: string;
  segmentsJson: string;
  /** What the job's engine result says of the whole recording. */
  engine: { language: string | null; duration: number | null };
  /** Leave the filler words of the transcript's language out (an export for reading; common/filler-words.ts). */
  removeFillers?: boolean;
}

/** The segments with their filler words left out, text and word times alike (the stored revision is not touched). */
function withoutFillers(segments: RevisionSegment[], language: string | null): RevisionSegment[] {
  const fillers = fillersOf(language);
  return segments.map((s) => ({ ...s, text: removeFillers(s.text, fillers), words: s.words.filter((w) => !isFiller(w.word, fillers)) }));
}

export function exportResult(parts: ExportParts): JobResult {
  const speakers = JSON.parse(parts.speakersJson) as RevisionBody['speakers'];
  const { engine } = parts;
  const stored = JSON.parse(parts.segmentsJson) as RevisionSegment[];
  const segments = parts.removeFillers ? withoutFillers(stored, engine.language) : stored;
  const nameOf = (key: string | null): string | undefined => (key === null ? undefined : (speakers[key] ?? key));
  const spoken = segments.filter((s) => s.text !== '');
  return {
    text: spoken.map((s) => s.text).join(' '),
    ...(engine.language ? { language: engine.language } : {}),
    ...(engine.duration !== null ? { duration: engine.duration } : {}),
    segments: spoken.map((s) => ({ id: s.index, start: s.start, end: s.end, text: s.text, ...(s.speaker ? { speaker: nameOf(s.speaker) } : {}) })),
    words: spoken.flatMap((s) => s.words.map((w) => ({ ...w, ...(s.speaker ? { speaker: nameOf(s.speaker) } : {}) }))),
  };
}
