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
