/**
 * Security rules of the app window (docs/design.md §6.2), pure so they are unit-tested without Electron: the page's
 * CSP, which URLs the window may show, and which IPC senders are the app's own page.
 */

/** The renderer loads from app://voxdesk (app-protocol.ts); it may talk to the in-process service only. */
export function contentSecurityPolicy(serviceUrl: string): string {
  const http = new URL(serviceUrl);
  const origin = http.origin;
  const ws = `${http.protocol === 'https:' ? 'wss' : 'ws'}://${http.host}`;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${origin}`,
    `media-src 'self' blob: ${origin}`,
    `connect-src ${origin} ${ws}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

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

/** Links the user may open in the system browser (artifact downloads stay in the app). */
export function isExternalLink(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:';
  } catch {
    return false;
  }
}
