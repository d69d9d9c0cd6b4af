/**
 * Doubts an engine measures while it recognises a segment (issue 29.1): `no_speech`, text decoded over audio the
 * voice-activity detector calls silence, needs the samples, which only the worker has. The flags are committed with
 * the segment, like its words, so a job resumed after a kill keeps the flags of the segments committed before it and
 * its transcript equals an uninterrupted run's. NULL: none (every segment committed before this migration).
 * (029 is another change's.)
 */
import type { Migration } from './migration.js';

export const segmentFlags: Migration = {
  version: 30,
  name: 'segment-flags',
  up: `ALTER TABLE job_segments ADD COLUMN flags_json TEXT;`,
  postgres: `ALTER TABLE job_segments ADD COLUMN flags_json text COLLATE "C";`,
};
