/**
 * How the page finds its service: in Electron the preload bridge gives the URL and key; in browser mode the page
 * is served by the local service itself, which hands out the local key at /v1/session/bootstrap (loopback only).
 */
import { ApiClient } from '$common/api-client.js';
import type { DesktopBridge } from '$common/desktop-bridge.js';

export function desktopBridge(): DesktopBridge | null {
  return (globalThis as { voxdesk?: DesktopBridge }).voxdesk ?? null;
}

export async function connect(): Promise<{ client: ApiClient; bridge: DesktopBridge | null; dataDir: string | null }> {
  const bridge = desktopBridge();
  if (bridge) {
    return { client: new ApiClient({ baseUrl: bridge.serviceUrl, apiKey: bridge.apiKey }), bridge, dataDir: bridge.dataDir };
  }
  const client = new ApiClient({ baseUrl: location.origin, apiKey: null });
  const session = await client.bootstrap();
  client.apiKey = session.api_key;
  return { client, bridge: null, dataDir: typeof session.data_dir === 'string' ? session.data_dir : null };
}
