/**
 * Transcript exports off the service's thread (trust review 2's rule: CPU-heavy work per request is bounded or off
 * the event loop): a ten-hour transcript takes about a second to lay out as SRT or VTT and two and a half as DOCX,
 * and every other request of every account would wait that long. Exports run one at a time on one thread that takes
 * turns between accounts and stops when idle (engines/worker/fair-thread.ts).
 */
import type { RenderedTranscript } from '../../common/transcript-export.js';
import type { CueOptions, TranscriptFormat } from '../../common/transcript-formats.js';
import { scriptEntry } from '../../platform/script-entry.js';
import { FairThread } from '../../engines/worker/fair-thread.js';
import type { ExportParts } from '../../jobs/transcripts/transcript-export-parts.js';
import { EXPORT_FAILURE, type ExportAnswer, type ExportRequest } from './export-protocol.js';

/** The export thread stops after this long without work. Default 60 s. */
export const EXPORT_THREAD_IDLE_MS = 60_000;

export interface ExportOrder {
  parts: ExportParts;
  format: TranscriptFormat;
  title: string;
  cues?: CueOptions;
}

export class ExportRenderer {
  private readonly thread: FairThread<ExportRequest, ExportAnswer>;

  constructor(idleMs = EXPORT_THREAD_IDLE_MS) {
    this.thread = new FairThread({ entry: scriptEntry('export-thread', import.meta.url), failure: EXPORT_FAILURE, idleMs });
  }

  render(accountId: string, order: ExportOrder): Promise<RenderedTranscript> {
    return this.thread.run(accountId, { parts: order.parts, format: order.format, title: order.title, cues: order.cues ?? {} });
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
