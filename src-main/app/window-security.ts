/**
 * Security rules of the app window (docs/design.md §6.2), pure so they are unit-tested without Electron: the page's
 * CSP, which URLs the window may show, which IPC senders are the app's own page, and which links leave the app.
 */

/**
 * The policy of a page loaded in the app: scripts only from the app, network access only to the in-process service
 * (`service` for HTTP, `socket` for its WebSocket), nothing framed, no forms, no plugins.
 */
function policy(service: readonly string[], socket: string, headerOnly: readonly string[]): string {
  const sources = (...list: string[]): string => [...new Set(list)].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src ${sources("'self'", 'data:', 'blob:', ...service)}`,
    `media-src ${sources("'self'", 'blob:', ...service)}`,
    `connect-src ${sources(...service, socket)}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    ...headerOnly,
  ].join('; ');
}

/** The CSP header of every app:// response: the page may talk to the service at `serviceUrl` only. */
export function contentSecurityPolicy(serviceUrl: string): string {
  const http = new URL(serviceUrl);
  const ws = `${http.protocol === 'https:' ? 'wss' : 'ws'}://${http.host}`;
  return policy([http.origin], ws, ["frame-ancestors 'none'"]);
}

/**
 * The same policy as a `<meta http-equiv>` tag in src-renderer/index.html, so the page carries it however it is
 * served (a test keeps the two equal). The service's port is only known at run time, so the meta allows the
 * loopback service on any port plus the page's own origin (browser mode, where the service serves the page); the
 * exact header policy narrows that down, since a browser enforces both. `frame-ancestors` is not allowed in a meta
 * tag and stays in the header alone.
 */
export const RENDERER_META_CSP = policy(["'self'", 'http://127.0.0.1:*'], 'ws://127.0.0.1:*', []);

/** True when `url` is the app's own page (same file, any hash/query); everything else is denied navigation. */
export function isAppPage(url: string, appPageUrl: string): boolean {
  try {
    const a = new URL(url);
    const b = new URL(appPageUrl);
    return a.protocol === b.protocol && a.host === b.host && a.pathname === b.pathname;
  } catch {
    return false;
  }
}

/** IPC sender validation: the frame that sent the message must be the top-level app page. */
export function isTrustedSender(frame: { url: string; parent?: unknown } | null | undefined, appPageUrl: string): boolean {
  if (!frame) return false;
  if (frame.parent) return false;
  return isAppPage(frame.url, appPageUrl);
}

/**
 * Hosts whose pages the app itself links to, opened in the system browser. None today: no screen links outside the
 * app (artifact downloads stay in the app). A screen that adds such a link adds its host here, deliberately.
 */
export const EXTERNAL_LINK_HOSTS: readonly string[] = [];

/**
 * Whether a link the page asks to open (window.open, target=_blank) goes to the system browser: https on the
 * default port, no credentials, and a host of the allow-list exactly (no subdomains). Everything else is dropped.
 */
export function isAllowedExternalLink(url: string, hosts: readonly string[] = EXTERNAL_LINK_HOSTS): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' || u.port !== '' || u.username !== '' || u.password !== '') return false;
  return hosts.includes(u.hostname);
}
