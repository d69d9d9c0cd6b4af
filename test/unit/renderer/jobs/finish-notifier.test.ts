/**
 * The notes that long work finished (src-renderer/src/jobs/finish-notifier.svelte.ts): only changes seen between two
 * polls, only while the page is hidden, only jobs that ran a while (batch items with their batch), in the person's
 * language; in the desktop app the shell notifies by itself and the page stays quiet.
 */
import { describe, expect, it } from 'vitest';
import type { Batch, Job } from '../../../../src-main/common/api-types.js';
import { FinishNotifier, type FinishNote } from '../../../../src-renderer/src/jobs/finish-notifier.svelte.js';

const job = (id: string, status: Job['status'], seconds = 60, patch: Partial<Job> = {}): Job =>
  ({ id, status, product: 'speech-to-text', name: `${id}.wav`, started_at: '2026-01-01T00:00:00Z', finished_at: status === 'running' ? null : new Date(Date.parse('2026-01-01T00:00:00Z') + seconds * 1000).toISOString(), batch_id: null, error_code: null, error_message: null, ...patch }) as Job;
const batch = (id: string, status: Batch['status']): Batch => ({ id, status, file_count: 3, succeeded: 2, failed: status === 'open' ? 0 : 1, remaining: 0 }) as Batch;

function notifier(visible: { now: boolean }) {
  const shown: FinishNote[] = [];
  const n = new FinishNotifier(() => false, { visible: () => visible.now, show: (note) => shown.push(note) });
  n.permission = 'granted'; // as a browser that allowed them
  return { n, shown };
}

describe('FinishNotifier', () => {
  it('announces long jobs and batches that finish while hidden, and nothing that had finished before', () => {
    const visible = { now: false };
    const { n, shown } = notifier(visible);
    n.observe([job('old', 'succeeded'), job('long', 'running'), job('short', 'running'), job('item', 'running', 60, { batch_id: 'b' })], [batch('b', 'open')]);
    expect(shown).toEqual([]);
    n.observe([job('old', 'succeeded'), job('long', 'succeeded'), job('short', 'succeeded', 3), job('item', 'succeeded', 60, { batch_id: 'b' })], [batch('b', 'complete')]);
    expect(shown.map((s) => [s.title, s.body])).toEqual([
      ['Transcription finished', 'long.wav is ready.'],
      ['Batch finished with problems', '3 items: 2 done, 1 failed.'],
    ]);
    expect(shown[0]!.transcriptId).toBe('long');
  });

  it('says nothing while the person is looking, and says why a job failed', () => {
    const visible = { now: true };
    const { n, shown } = notifier(visible);
    n.observe([job('a', 'running'), job('b', 'running')], []);
    n.observe([job('a', 'succeeded'), job('b', 'running')], []);
    expect(shown).toEqual([]);
    visible.now = false;
    n.observe([job('a', 'succeeded'), job('b', 'failed', 60, { error_code: 'audio_decode_failed' })], []);
    expect(shown.map((s) => s.body)).toEqual(['b.wav: The file could not be decoded as audio. It may be damaged or in an unusual format.']);
  });

  it('stays quiet in the desktop app (its shell notifies) and when the person switched it off', async () => {
    const { n, shown } = notifier({ now: false });
    expect(n.active).toBe(true);
    const desktop = new FinishNotifier(() => true, { visible: () => false, show: (note) => shown.push(note) });
    desktop.permission = 'granted';
    desktop.observe([job('a', 'running')], []);
    desktop.observe([job('a', 'succeeded')], []);
    expect(shown).toEqual([]);
    await n.setEnabled(false);
    expect(n.active).toBe(false);
    expect(new FinishNotifier().active).toBe(false); // Node has no Notification API
  });
});
