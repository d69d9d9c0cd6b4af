/**
 * The documents hold together: every relative link of README.md and docs/*.md names a file that exists (and a heading
 * of it, when the link has an anchor), and every `docs/design.md §N` or `§N.M` the code cites is a section of
 * docs/design.md (a `## N.` heading; M a numbered item of that section).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/service.js';

const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** Markdown outside fenced code blocks (a link inside one is an example, not a link). */
function prose(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8').replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchorsOf(file: string): string[] {
  return [...prose(file).matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1]!));
}

function relativeLinks(file: string): string[] {
  return [...prose(file).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^([a-z]+:|#)/i.test(target));
}

describe('documentation links', () => {
  it('README.md is short enough to read first', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(160);
  });

  for (const file of DOCS) {
    it(`every relative link of ${file} resolves`, () => {
      const broken: string[] = [];
      for (const target of relativeLinks(file)) {
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const resolved = join(dirname(join(ROOT, file)), decodeURIComponent(path));
        if (!existsSync(resolved)) broken.push(`${target} (no file ${relative(ROOT, resolved)})`);
        else if (anchor && resolved.endsWith('.md') && !anchorsOf(relative(ROOT, resolved)).includes(anchor)) broken.push(`${target} (no heading #${anchor})`);
      }
      expect(broken).toEqual([]);
    });
  }
});

describe('design citations', () => {
  const design = prose('docs/design.md');
  /** Section number → its text up to the next `## ` heading. */
  const sections = new Map([...design.matchAll(/^## (\d+)\.[^\n]*\n([\s\S]*?)(?=^## |$(?![\s\S]))/gm)].map((m) => [m[1]!, m[2]!]));

  function sourceFiles(dir: string): string[] {
    return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && /\.(ts|js|mjs|svelte)$/.test(e.name) && !e.parentPath.includes('node_modules') && !e.parentPath.includes('/dist'))
      .map((e) => relative(ROOT, join(e.parentPath, e.name)));
  }

  it('has its numbered sections', () => {
    expect([...sections.keys()]).toEqual(['1', '2', '3', '4', '5', '6', '7']);
  });

  it('every "docs/design.md §N" in the code names a section that exists', () => {
    const files = [...['src-main', 'src-renderer/src', 'test', 'bench', 'scripts'].flatMap(sourceFiles), 'eslint.config.js'];
    const cited: string[] = [];
    const missing: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/design\.md §(\d+)(?:\.(\d+))?/g)) {
        cited.push(m[0]);
        const section = sections.get(m[1]!);
        const found = section !== undefined && (m[2] === undefined || new RegExp(`^${m[2]}\\. `, 'm').test(section));
        if (!found) missing.push(`${file}: ${m[0]}`);
      }
      for (const m of text.matchAll(/\bdocs\/([a-z-]+\.md)/g)) if (!existsSync(join(ROOT, 'docs', m[1]!))) missing.push(`${file}: docs/${m[1]}`);
    }
    expect(cited.length).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});
