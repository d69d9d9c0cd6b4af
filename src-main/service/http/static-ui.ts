/**
 * Serves the built renderer (--ui DIR) at `/` under a strict Content-Security-Policy. Paths that name no file
 * fall back to index.html (client-side routes); /v1 is never shadowed. Files are streamed, never buffered.
 */
import type { Context, Hono } from 'hono';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { AppEnv } from '../app-env.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

/** Scripts only from this origin; inline styles allowed (Svelte transitions write style attributes). */
export const UI_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

async function fileAt(root: string, urlPath: string): Promise<{ path: string; size: number } | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const path = resolve(root, '.' + decoded);
  if (path !== root && !path.startsWith(root + sep)) return null;
  try {
    const s = await stat(path);
    if (s.isFile()) return { path, size: s.size };
    if (s.isDirectory()) {
      const index = join(path, 'index.html');
      const si = await stat(index).catch(() => null);
      if (si?.isFile()) return { path: index, size: si.size };
    }
  } catch {
    return null;
  }
  return null;
}

function send(c: Context, file: { path: string; size: number }, head: boolean): Response {
  const type = TYPES[extname(file.path).toLowerCase()] ?? 'application/octet-stream';
  const headers: Record<string, string> = {
    'Content-Type': type,
    'Content-Length': String(file.size),
    'Content-Security-Policy': UI_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': type.startsWith('text/html') ? 'no-cache' : 'public, max-age=3600',
  };
  if (head || c.req.method === 'HEAD') return new Response(null, { status: 200, headers });
  return new Response(Readable.toWeb(createReadStream(file.path)) as unknown as ReadableStream<Uint8Array>, { status: 200, headers });
}

export function registerStaticUi(app: Hono<AppEnv>, dir: string): void {
  const root = resolve(dir);
  app.on(['GET', 'HEAD'], '*', async (c, next) => {
    const path = new URL(c.req.url).pathname;
    if (path === '/v1' || path.startsWith('/v1/')) return next();
    const file = await fileAt(root, path);
    if (file) return send(c, file, false);
    // A missing asset (has an extension) is a real 404; anything else is a client route of the single-page app.
    if (extname(path)) return next();
    const index = await fileAt(root, '/index.html');
    return index ? send(c, index, false) : next();
  });
}
