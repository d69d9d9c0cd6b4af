/**
 * The renderer's colour and size tokens: every `var(--name)` a component or the stylesheet uses is defined in
 * styles.css, without a fallback that hides a missing one (the Dictate panel's Stop button once used `--danger`, which
 * never existed, and showed a hard-coded red in dark mode).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const SRC = new URL('../../../src-renderer/src/', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : /\.(svelte|css)$/.test(e.name) ? [join(dir, e.name)] : []));
}

it('uses only the tokens styles.css defines, with no fallback hiding a missing one', () => {
  const defined = new Set([...readFileSync(join(SRC, 'styles.css'), 'utf8').matchAll(/(--[a-z0-9-]+)\s*:/g)].map((m) => m[1]));
  const wrong: string[] = [];
  for (const file of files(SRC)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/var\((--[a-z0-9-]+)\s*(,)?/g)) {
      if (!defined.has(m[1]!)) wrong.push(`${file.slice(SRC.length)}: ${m[1]} is not defined`);
      else if (m[2]) wrong.push(`${file.slice(SRC.length)}: ${m[1]} has a fallback`);
    }
  }
  expect(wrong).toEqual([]);
});
