/**
 * For tests of the renderer's work modules (src-renderer/src/lib/*.svelte.ts): the page's own AppState connected to
 * a real service and polling it, as the page runs it, and a wait for a condition on rune state.
 */
import { ApiClient } from '../../src-main/common/api-client.js';
import { AppState } from '../../src-renderer/src/lib/app-state.svelte.js';
import type { TestService } from './service.js';

/** An AppState polling `svc` with its key; call `stopPolling()` when done. */
export function connectedAppState(svc: TestService): AppState {
  const app = new AppState();
  app.client = new ApiClient({ baseUrl: svc.url, apiKey: svc.key });
  app.startPolling();
  return app;
}

/** Resolves once `predicate` holds (checked every 25 ms); fails after `timeoutMs` naming `what`. */
export async function until(predicate: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
