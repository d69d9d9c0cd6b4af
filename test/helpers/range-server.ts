/**
 * A local node:http file server for the downloader tests: serves in-memory files with Range, ETag and If-Range
 * support, and can misbehave on purpose (drop the connection after N bytes, ignore ranges, stall).
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface ServedFile {
  body: Buffer;
  /** Drop the connection after this many body bytes, for the first `dropTimes` responses. */
  dropAfter?: number;
  dropTimes?: number;
  /** Answer 200 with the whole file even to a Range request. */
  ignoreRange?: boolean;
  /** Send the body in small chunks with a pause (ms) between them, so a test can stop mid-way. */
  slowChunkMs?: number;
  /** Bytes per chunk of a slow body. Default 64 KiB. */
  chunkBytes?: number;
}

export interface RequestLog {
  path: string;
  range: string | null;
  ifRange: string | null;
  status: number;
}

export interface RangeServer {
  url: string;
  files: Map<string, ServedFile>;
  requests: RequestLog[];
  close(): Promise<void>;
}

function etagOf(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
}

/** `tls`: serve HTTPS with this key and certificate (PEM) instead of plain HTTP. */
export async function startRangeServer(files: Record<string, ServedFile> = {}, tls?: { key: string; cert: string }): Promise<RangeServer> {
  const map = new Map(Object.entries(files));
  const requests: RequestLog[] = [];
  const drops = new Map<string, number>();
  const handler: http.RequestListener = (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const range = req.headers.range ?? null;
    const ifRange = (req.headers['if-range'] as string | undefined) ?? null;
    const file = map.get(path);
    const log = (status: number) => requests.push({ path, range, ifRange, status });
    if (!file) {
      log(404);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const etag = etagOf(file.body);
    let start = 0;
    let status = 200;
    const m = range ? /^bytes=(\d+)-$/.exec(range) : null;
    if (m && !file.ignoreRange && (!ifRange || ifRange === etag)) {
      start = Number(m[1]);
      if (start >= file.body.length) {
        log(416);
        res.writeHead(416, { 'content-range': `bytes */${file.body.length}` }).end();
        return;
      }
      status = 206;
    }
    log(status);
    const body = file.body.subarray(start);
    const headers: Record<string, string | number> = {
      'content-type': 'application/octet-stream',
      'content-length': body.length,
      etag,
      'accept-ranges': 'bytes',
    };
    if (status === 206) headers['content-range'] = `bytes ${start}-${file.body.length - 1}/${file.body.length}`;
    res.writeHead(status, headers);
    const dropped = drops.get(path) ?? 0;
    if (file.dropAfter !== undefined && dropped < (file.dropTimes ?? 1)) {
      drops.set(path, dropped + 1);
      const cut = Math.max(0, file.dropAfter - start);
      // end(), not destroy(): a reset may discard bytes the client has not read yet, and the cut must come after them.
      res.write(body.subarray(0, cut), () => res.socket?.end());
      return;
    }
    if (file.slowChunkMs) {
      const chunk = file.chunkBytes ?? 64 * 1024;
      let offset = 0;
      const pump = () => {
        if (res.destroyed) return;
        if (offset >= body.length) return void res.end();
        res.write(body.subarray(offset, offset + chunk));
        offset += chunk;
        setTimeout(pump, file.slowChunkMs);
      };
      pump();
      return;
    }
    res.end(body);
  };
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    files: map,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
