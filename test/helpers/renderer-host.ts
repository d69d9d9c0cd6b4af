/**
 * For tests of the renderer's work modules (src-renderer/src/<feature>/*.svelte.ts): the page's own AppState connected
 * to a real service and polling it, as the page runs it, and a wait for a condition on rune state.
 */
import { afterAll, beforeAll } from 'vitest';
import type { ServiceConfig } from '../../src-main/service/config.js';
import { ApiClient } from '../../src-main/common/api-client.js';
import { AppState } from '../../src-renderer/src/shared/service/app-state.svelte.js';
import { startTestService, type TestService } from './service.js';
import { scaled } from './time-scale.js';
import { until as waitUntil } from './wait.js';

/** An AppState polling `svc` with its key; call `stopPolling()` when done. */
export function connectedAppState(svc: TestService): AppState {
  const app = new AppState();
  app.client = new ApiClient({ baseUrl: svc.url, apiKey: svc.key });
  app.startPolling();
  return app;
}

/**
 * A test service started before the file's tests and an AppState polling it, both stopped after them: read `.svc` and
 * `.app` inside the tests.
 */
export function useConnectedApp(config: Partial<ServiceConfig> = {}): { readonly svc: TestService; readonly app: AppState } {
  let svc: TestService | undefined;
  let app: AppState | undefined;
  beforeAll(async () => {
    svc = await startTestService(config);
    app = connectedAppState(svc);
  });
  afterAll(async () => {
    app?.stopPolling();
    await svc?.stop();
  });
  return {
    get svc() {
      if (!svc) throw new Error('the test service is not started yet');
      return svc;
    },
    get app() {
      if (!app) throw new Error('the test service is not started yet');
      return app;
    },
  };
}

/** Resolves once `predicate` holds (checked every 25 ms, test/helpers/wait.ts); fails after `timeoutMs` naming `what`. */
export async function until(predicate: () => boolean, what: string, timeoutMs = scaled(30_000)): Promise<void> {
  await waitUntil(what, predicate, (holds) => holds, { timeoutMs, everyMs: 25 });
}
