import type { Migration } from './migration.js';
import { initial } from './001-initial.js';
import { models } from './002-models.js';
import { remote } from './003-remote.js';
import { uploadRetention } from './004-upload-retention.js';
import { remoteBatches } from './005-remote-batches.js';
import { ledgerOutlivesJobs } from './006-ledger-outlives-jobs.js';
import { transcriptSegments } from './007-transcript-segments.js';
import { keysAndSecrets } from './008-keys-and-secrets.js';
import { pendingBatchItems } from './009-pending-batch-items.js';
import { pricesAndBudget } from './010-prices-and-budget.js';
import { transcriptRevisions } from './011-transcript-revisions.js';
import { urlModelPackages } from './014-url-model-packages.js';
import { watchFiles } from './015-watch-files.js';
import { queueOrder } from './016-queue-order.js';
import { searchIndexLater } from './017-search-index-later.js';
import { unmarkedOrder } from './018-unmarked-order.js';
import { ledgerLean } from './019-ledger-lean.js';
import { activeJobsIndex } from './020-active-jobs-index.js';
import { revisionsRowid } from './021-revisions-rowid.js';
import { keyFingerprints } from './022-key-fingerprints.js';
import { liveReservations } from './023-live-reservations.js';
import { jobLeases } from './024-job-leases.js';
import { transcriptAi } from './025-transcript-ai.js';
import { vocabularies } from './026-vocabularies.js';
import { aiResultsSearchable } from './027-ai-results-searchable.js';
import { speakerLibrary } from './028-speaker-library.js';
import { savedVoices } from './029-saved-voices.js';
import { segmentFlags } from './030-segment-flags.js';

/** Append only: never edit or reorder a released migration; add the next number. */
export const MIGRATIONS: readonly Migration[] = [
  initial,
  models,
  remote,
  uploadRetention,
  remoteBatches,
  ledgerOutlivesJobs,
  transcriptSegments,
  keysAndSecrets,
  pendingBatchItems,
  pricesAndBudget,
  transcriptRevisions,
  urlModelPackages,
  watchFiles,
  queueOrder,
  searchIndexLater,
  unmarkedOrder,
  ledgerLean,
  activeJobsIndex,
  revisionsRowid,
  keyFingerprints,
  liveReservations,
  jobLeases,
  transcriptAi,
  vocabularies,
  aiResultsSearchable,
  speakerLibrary,
  savedVoices,
  segmentFlags,
];
