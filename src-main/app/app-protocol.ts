/**
 * The renderer is served from a privileged custom scheme, `app://voxdesk/…`, not file://: it gets a real origin
 * (`app://voxdesk`, the one CORS origin the in-process service allows), and every response carries the CSP.
 * Path resolution is pure and confined to the renderer directory.
 */
import { extname, resolve, sep } from 'node:path';

export const APP_SCHEME = 'app';
export const APP_HOST = 'voxdesk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_PAGE_URL = `${APP_ORIGIN}/index.html`;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

/** File for an app:// URL, or null when it is outside the renderer dir or not for our host. */
export function resolveAppFile(rendererDir: string, url: string): { path: string; contentType: string } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  if (pathname === '/' || pathname === '') pathname = '/index.html';
  const root = resolve(rendererDir);
  const path = resolve(root, '.' + pathname);
  if (!path.startsWith(root + sep)) return null;
  return { path, contentType: TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream' };
}
