/**
 * What an export is made from, kept as the store holds it — the latest revision's JSON and the engine's result JSON
 * — so that parsing it and laying it out (seconds for a ten-hour transcript) happen where the export is rendered, off
 * the service's thread (service/exports/export-renderer.ts), and `exportResult` turns it into the JobResult every
 * export format reads: the latest revision's text and words with its speakers' names.
 */
import type { JobResult } from '../common/api-types.js';
import type { RevisionSegment } from '../common/transcript-types.js';
import type { RevisionBody } from './transcript-original.js';

export interface ExportParts {
  speakersJson: string;
  segmentsJson: string;
  /** The job's engine result (language, duration), or null. */
  engineJson: string | null;
}

function engineResult(json: string | null): JobResult {
  try {
    return json ? (JSON.parse(json) as JobResult) : {};
  } catch {
    return {};
  }
}

export function exportResult(parts: ExportParts): JobResult {
  const speakers = JSON.parse(parts.speakersJson) as RevisionBody['speakers'];
  const segments = JSON.parse(parts.segmentsJson) as RevisionSegment[];
  const engine = engineResult(parts.engineJson);
  const nameOf = (key: string | null): string | undefined => (key === null ? undefined : (speakers[key] ?? key));
  const spoken = segments.filter((s) => s.text !== '');
  return {
    text: spoken.map((s) => s.text).join(' '),
    ...(engine.language ? { language: engine.language } : {}),
    ...(engine.duration !== undefined ? { duration: engine.duration } : {}),
    segments: spoken.map((s) => ({ id: s.index, start: s.start, end: s.end, text: s.text, ...(s.speaker ? { speaker: nameOf(s.speaker) } : {}) })),
    words: spoken.flatMap((s) => s.words.map((w) => ({ ...w, ...(s.speaker ? { speaker: nameOf(s.speaker) } : {}) }))),
  };
}
