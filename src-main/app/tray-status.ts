import type { Capture } from '../common/capture-protocol.js';

/** Tray text from the queue summary (GET /v1/queue / jobs.queueSummary). */
export interface QueueCounts {
  queued: number;
  running: number;
  /** Batch items not yet jobs (absent from older services). */
  pending?: number;
  waiting: Record<string, number>;
}

export function trayLabel(q: QueueCounts | null): string {
  if (!q) return 'Voxdesk — starting';
  const offline = q.waiting['waiting_for_network'] ?? 0;
  const budget = q.waiting['waiting_for_budget'] ?? 0;
  const parts: string[] = [];
  if (q.running) parts.push(`${q.running} running`);
  const plainQueued = q.queued - offline - budget;
  if (plainQueued > 0) parts.push(`${plainQueued} queued`);
  if (q.pending) parts.push(`${q.pending} pending`);
  if (offline) parts.push(`offline — ${offline} waiting`);
  if (budget) parts.push(`${budget} waiting for the monthly budget`);
  return parts.length ? `Voxdesk — ${parts.join(', ')}` : 'Voxdesk — idle';
}

/** The tray's text while a meeting capture records this machine's microphone and sound: said before the queue's. */
export function captureTrayLabel(queueLabel: string, capture: Pick<Capture, 'status' | 'duration_seconds'> | null): string {
  if (!capture || (capture.status !== 'recording' && capture.status !== 'stopping')) return queueLabel;
  const minutes = Math.floor(capture.duration_seconds / 60);
  const what = capture.status === 'stopping' ? 'saving the meeting' : `recording a meeting (microphone and sound, ${minutes} min)`;
  return `● ${queueLabel.replace(/^Voxdesk — /, `Voxdesk — ${what}; `)}`;
}
