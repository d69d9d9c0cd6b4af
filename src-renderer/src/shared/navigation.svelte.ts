/**
 * Where the person is in the page and the moves one tab asks of another: the open tab, the Live tab's mode, a
 * transcript to open at a moment (a library search result), the monthly cap to show with its field focused ("Raise
 * the cap"). One per page, provided through context (NAVIGATION).
 */
import { contextKey } from './context.js';
import type { TabId } from './shortcuts.js';

/**
 * Where to open a transcript: a job, a moment in it and the segment there (null: no segment, e.g. a search hit on
 * the job's name), or an AI action's answer on it (`aiJobId`: its AI panel opens on that answer); `seq` tells
 * repeated requests apart.
 */
export interface TranscriptFocus {
  jobId: string;
  time: number;
  segmentIndex: number | null;
  aiJobId?: string | null;
  /** The words a search matched in that segment (their index in its words and how many): highlighted there. */
  words?: { first: number; count: number } | null;
  seq: number;
}

export class Navigation {
  tab = $state<TabId>('transcribe');
  /** The Live tab's mode: speak text as it is typed, or dictate into the microphone. */
  liveMode = $state<'speak' | 'dictate' | 'meeting'>('speak');
  /** A transcript to open at a moment (a library search result); the Jobs tab opens it, seeked there. */
  openRequest = $state.raw<TranscriptFocus | null>(null);
  /** Bumped by "Raise the cap": the Usage page then shows and focuses the monthly cap. */
  budgetFocus = $state(0);
  #focusSeq = 0;

  /** Opens the monthly cap for hosted work (the Usage page) with its field focused. */
  openBudget(): void {
    this.tab = 'usage';
    this.budgetFocus++;
  }

  /**
   * Opens a job's transcript on the Jobs tab at `time` (seconds), with `segmentIndex` (when given) in view, or with
   * its AI panel on the answer of the action job `aiJobId` (when given), and `words` of that segment highlighted.
   */
  openTranscriptAt(jobId: string, time: number, segmentIndex: number | null, aiJobId: string | null = null, words: TranscriptFocus['words'] = null): void {
    this.openRequest = { jobId, time, segmentIndex, aiJobId, words, seq: ++this.#focusSeq };
    this.tab = 'jobs';
  }
}

export const NAVIGATION = contextKey<Navigation>('navigation');
