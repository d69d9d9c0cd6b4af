/**
 * What the tabs' work modules (`*.svelte.ts` beside this file) need of the page: the connected service, the polled
 * job and batch lists, and a way to tell the person. The page's AppState (app-state.svelte.ts) is the one host; tests
 * give the modules a real AppState on a real service. Written as an interface so the modules never reach for the
 * page's singletons.
 */
import type { ApiClient } from '$common/api-client.js';
import type { Batch, Job } from '$common/api-types.js';
import type { DesktopBridge } from '$common/desktop-bridge.js';

export interface ServiceHost {
  readonly api: ApiClient;
  /** The desktop app's bridge; null in browser mode. */
  readonly bridge: DesktopBridge | null;
  /** The newest jobs, as last polled. */
  readonly jobs: readonly Job[];
  /** Cursor after the polled first page of jobs (null when there is no older job). */
  readonly jobsCursor: string | null;
  jobById(id: string | null | undefined): Job | undefined;
  batchById(id: string | null | undefined): Batch | undefined;
  /** Merges a job or batch the service just answered with, so the lists show it before the next poll. */
  upsertJob(job: Job): void;
  upsertBatch(batch: Batch): void;
  /** Poll at once: something changed. */
  refreshSoon(): void;
  toast(text: string, kind?: 'info' | 'error'): void;
}
