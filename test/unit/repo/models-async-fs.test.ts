/**
 * The model manager runs on the service's thread, so the file-system work of a download, an install or an import is
 * asynchronous (issue 27.1): no `…Sync(` call in src-main/models except the few that are not such work — listed
 * here with the reason, so a new one is a decision, not an accident.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/service.js';

const ALLOWED: Record<string, string> = {
  'src-main/models/packages/built-in-models.ts': 'which shipped files exist, once when the service is created',
  'src-main/models/downloads/download-network.ts': 'readCaFile: the CA file named in the configuration, read once at start (downloads use loadCaFile)',
  'src-main/models/voice-facts.ts': "an installed voice's speakers and rate, read once per file for its catalogue row",
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

describe('src-main/models', () => {
  it('does no synchronous file-system work outside the listed places', () => {
    const found: string[] = [];
    for (const file of sources(join(ROOT, 'src-main', 'models'))) {
      const rel = relative(ROOT, file);
      if (ALLOWED[rel]) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/\b\w+Sync\(/.test(line) && !/^\s*(\/\/|\*)/.test(line)) found.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });
});
