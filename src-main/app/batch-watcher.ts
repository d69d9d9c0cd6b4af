/**
 * Tells which batches finished since the last look, so the shell can show one system notification per batch.
 * A batch is announced once, when it is seen complete after having been seen open or after being created
 * since the watcher started (a small batch can finish between two looks); history from earlier runs is not.
 */
import type { Batch } from '../common/api-types.js';

export interface BatchNotice {
  batchId: string;
  title: string;
  body: string;
}

export class BatchWatcher {
  private readonly open = new Set<string>();
  private readonly announced = new Set<string>();

  /** @param sinceMs batches created before this time are history. Default: now. */
  constructor(private readonly sinceMs: number = Date.now()) {}

  /** Feed the current batch list; returns notices for batches that went open → complete. */
  update(batches: readonly Pick<Batch, 'id' | 'status' | 'product' | 'file_count' | 'succeeded' | 'failed' | 'created_at'>[]): BatchNotice[] {
    const notices: BatchNotice[] = [];
    for (const b of batches) {
      if (b.status === 'open') {
        this.open.add(b.id);
        continue;
      }
      const wasOpen = this.open.delete(b.id);
      const isNew = Date.parse(b.created_at) >= this.sinceMs;
      if ((wasOpen || isNew) && !this.announced.has(b.id)) {
        this.announced.add(b.id);
        notices.push(notice(b));
      }
    }
    return notices;
  }
}

function notice(b: Pick<Batch, 'id' | 'product' | 'file_count' | 'succeeded' | 'failed'>): BatchNotice {
  const what = b.product === 'speech-to-text' ? 'Transcription' : b.product === 'text-to-speech' ? 'Speech' : 'Batch';
  const items = b.product === 'speech-to-text' ? 'files' : 'items';
  const body = b.failed
    ? `${b.succeeded} of ${b.file_count} ${items} done, ${b.failed} failed.`
    : `All ${b.file_count} ${items} done.`;
  return { batchId: b.id, title: `${what} batch finished`, body };
}
