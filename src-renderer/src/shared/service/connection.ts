/**
 * How the page finds its service: in Electron the preload bridge gives the URL and key; in browser mode the page is
 * served by the local service itself. There `voxdesk serve --ui` prints the address with a one-time login token
 * (`/#token=…`): the page trades it for a session key (POST /v1/session/bootstrap), takes the token out of the
 * address bar and keeps the key in this origin's localStorage, so a reload or another tab stays logged in until the
 * service stops. Without a token or a kept key that still works, the page asks for the printed address.
 */
import { ApiClient, ApiClientError } from '$common/api-client.js';
import type { DesktopBridge } from '$common/desktop-bridge.js';
import { t } from '../i18n/i18n.svelte.js';

const TOKEN_IN_HASH = /^#token=([A-Za-z0-9_-]+)$/;
const STORED_KEY = 'voxdesk.sessionKey';

export function desktopBridge(): DesktopBridge | null {
  return (globalThis as { voxdesk?: DesktopBridge }).voxdesk ?? null;
}

/** True when the address holds a login token (the printed address was just opened or pasted into this tab). */
export function loginTokenInAddress(): boolean {
  return TOKEN_IN_HASH.test(location.hash);
}

export async function connect(): Promise<{ client: ApiClient; bridge: DesktopBridge | null; dataDir: string | null }> {
  const bridge = desktopBridge();
  if (bridge) {
    return { client: new ApiClient({ baseUrl: bridge.serviceUrl, apiKey: bridge.apiKey }), bridge, dataDir: bridge.dataDir };
  }
  const client = new ApiClient({ baseUrl: location.origin, apiKey: null });
  const token = TOKEN_IN_HASH.exec(location.hash)?.[1];
  if (token) {
    history.replaceState(null, '', location.pathname + location.search); // the token is spent: out of the address bar
    try {
      localStorage.setItem(STORED_KEY, (await client.bootstrap(token)).api_key);
    } catch (error) {
      // A used token (a reload of the printed address): a session kept from it may still work.
      if (!(error instanceof ApiClientError) || error.status !== 401) throw error;
    }
  }
  client.apiKey = localStorage.getItem(STORED_KEY);
  try {
    if (!client.apiKey) throw new ApiClientError('unauthorized', 'no session', 401);
    const session = await client.session();
    return { client, bridge: null, dataDir: session.data_dir };
  } catch (error) {
    if (!(error instanceof ApiClientError) || error.status !== 401) throw error;
    localStorage.removeItem(STORED_KEY); // the service restarted: its sessions ended with it
    throw new Error(t('shell.notLoggedIn'), { cause: error });
  }
}
