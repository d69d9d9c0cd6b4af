/**
 * The page's meeting capture modules (src-renderer/src/capture/) against a real service, with the page's AppState as
 * host: the banner's watch sees a capture started elsewhere and stops it; the Meeting mode follows a running capture
 * (nothing records unseen), gets its live state over the socket, and stops it into its job; another account's key
 * gets 404 from the capture routes, so its page shows no banner and stops asking.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { ApiClient } from '../../../../src-main/common/api-client.js';
import { pocketsphinxModelSource } from '../../../../src-main/engines/asr/pocketsphinx-models.js';
import { CaptureWatch } from '../../../../src-renderer/src/capture/capture-watch.svelte.js';
import { MeetingCapture } from '../../../../src-renderer/src/capture/meeting-capture.svelte.js';
import type { AppState } from '../../../../src-renderer/src/shared/service/app-state.svelte.js';
import { connectedAppState, until } from '../../../helpers/renderer-host.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { scaled } from '../../../helpers/time-scale.js';

let svc: TestService;
let app: AppState;
// Node 20 has no WebSocket of its own; ws's has the browser's onmessage/onclose shape.
const globalSocket = globalThis as { WebSocket?: unknown };
const hadSocket = globalSocket.WebSocket;

beforeAll(async () => {
  globalSocket.WebSocket ??= NodeWebSocket;
  svc = await startTestService({ builtInModels: true, extraModelSources: [pocketsphinxModelSource] });
  app = connectedAppState(svc);
}, scaled(120_000));
afterAll(async () => {
  globalSocket.WebSocket = hadSocket;
  app?.stopPolling();
  await svc?.stop();
});

describe('meeting capture in the page', () => {
  it('shows a capture started elsewhere, follows it, and stops it into its job', { timeout: scaled(120_000) }, async () => {
    const watch = new CaptureWatch(() => app);
    await watch.check();
    expect(watch.running).toBeNull();
    // Started by someone else (the command line): both sides sent by a client, so no sound server is needed.
    const started = await app.api.startCapture({ model: 'pocketsphinx-en-us', microphone: 'client', system: 'client' });
    await watch.check();
    expect(watch.running?.id).toBe(started.id);

    const meeting = new MeetingCapture(app, { modelId: () => 'pocketsphinx-en-us' });
    await meeting.refresh();
    expect(meeting.sources?.object).toBe('capture.sources');
    expect(meeting.phase).toBe('recording');
    await until(() => meeting.capture?.status === 'recording' && meeting.capture.sources.microphone.device === 'client', 'the state over the socket');
    await meeting.stop();
    expect(meeting.phase).toBe('idle');
    expect(meeting.capture?.status).toMatch(/^(done|failed)$/);
    await watch.check();
    expect(watch.running).toBeNull();
    meeting.close();
    watch.stop();
  });

  it('another account gets 404 from the capture routes: no banner, and it stops asking', async () => {
    const other = await svc.service.keys.createKey('someone-else');
    const api = new ApiClient({ baseUrl: svc.url, apiKey: other });
    await expect(api.listCaptures()).rejects.toMatchObject({ status: 404 });
    await expect(api.startCapture({ model: 'pocketsphinx-en-us' })).rejects.toMatchObject({ status: 404 });
    const watch = new CaptureWatch(() => ({ api }));
    await watch.check();
    expect(watch.running).toBeNull();
  });
});
