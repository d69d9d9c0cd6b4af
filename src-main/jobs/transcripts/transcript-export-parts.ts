/**
 * What an export is made from, kept as the store holds it — the latest revision's JSON, and the language and
 * duration of the engine's result — so that parsing it and laying it out (seconds for a ten-hour transcript) happen where the export is rendered, off
 * the service's thread (service/exports/export-renderer.ts), and `exportResult` turns it into the JobResult every
 * export format reads: the latest revision's text and words with its speakers' names.
 */
import type { JobResult } from '../../common/api-types.js';
import type { RevisionSegment } from '../../common/transcript-types.js';
import type { RevisionBody } from './transcript-original.js';

export interface ExportParts {
  speakersJson: string;
  segmentsJson: string;
  /** What the job's engine result says of the whole recording. */
  engine: { language: string | null; duration: number | null };
}

export function exportResult(parts: ExportParts): JobResult {
  const speakers = JSON.parse(parts.speakersJson) as RevisionBody['speakers'];
  const segments = JSON.parse(parts.segmentsJson) as RevisionSegment[];
  const { engine } = parts;
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
