/**
 * UI benchmark: size of the built renderer (src-renderer/dist), raw and gzip -9, per kind. Prints one JSON line.
 * Usage: npm run build:renderer && node --import tsx bench/ui-bundle-size.ts
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = new URL('../src-renderer/dist/', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const totals: Record<string, { raw: number; gzip: number }> = {};
for (const path of files(dist)) {
  const kind = extname(path).slice(1) || 'other';
  const data = readFileSync(path);
  const t = (totals[kind] ??= { raw: 0, gzip: 0 });
  t.raw += data.length;
  t.gzip += gzipSync(data, { level: 9 }).length;
}
const all = Object.values(totals).reduce((a, t) => ({ raw: a.raw + t.raw, gzip: a.gzip + t.gzip }), { raw: 0, gzip: 0 });
console.log(JSON.stringify({ bench: 'ui-bundle-size', total_bytes: all.raw, total_gzip_bytes: all.gzip, by_kind: totals }));
