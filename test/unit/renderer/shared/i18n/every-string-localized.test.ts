/**
 * Every user-visible string of the renderer goes through the i18n layer (src-renderer/src/shared/i18n): a test that
 * fails on the first string that does not. Components are parsed with Svelte's own compiler and their templates
 * walked: text nodes, the attributes people read or hear (aria-label, title, placeholder, alt, an option's label, and
 * any prop of a component that reads like words), and the string literals an expression puts on screen (the branches
 * of `a ? 'x' : 'y'`, `a ?? 'x'`, template literals) must be empty of words. Script code (the components' and the
 * work modules') must not hold sentences either, outside `t(…)`: toasts, labels and errors are message keys or codes.
 * What passes without translation: the product's name, and text without letters (symbols, numbers, `…`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'svelte/compiler';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../../../../src-renderer/src/', import.meta.url).pathname;
/** Words that are the same in every language. */
const ALLOWED = new Set(['Voxdesk']);
/** Attributes of an element that a person reads or hears. */
const VISIBLE_ATTRIBUTES = new Set(['aria-label', 'aria-description', 'aria-placeholder', 'aria-roledescription', 'aria-valuetext', 'title', 'placeholder', 'alt', 'label']);
/** Calls whose string arguments are keys or names, not text shown. */
const KEY_CALLS = new Set(['t', 'hasMessage', 'keyLabel', 'contextKey', 'querySelector', 'querySelectorAll', 'getElementById', 'getItem', 'setItem', 'removeItem']);

function files(dir: string, test: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name), test) : test(e.name) ? [join(dir, e.name)] : []));
}

const hasWords = (text: string): boolean => /\p{L}/u.test(text) && !ALLOWED.has(text.trim());
/** A literal in code that reads like words for people: two words or more, capitalised or ending a sentence. */
const isProse = (text: string): boolean => /\p{L}{2,}\s+\p{L}{2,}/u.test(text) && (/^\s*\p{Lu}\p{Ll}/u.test(text) || /\p{L}{2,}[.!?…]\s*$/u.test(text.trim()));

type Node = Record<string, unknown> & { type?: string; start?: number };

/** String literals an expression puts on screen (not its tests, not a call's arguments, not a function's body). */
function shownLiterals(expr: Node | null | undefined, out: string[]): void {
  if (!expr || typeof expr !== 'object') return;
  switch (expr.type) {
    case 'Literal':
      if (typeof expr.value === 'string' && hasWords(expr.value)) out.push(expr.value);
      return;
    case 'TemplateLiteral':
      for (const q of expr.quasis as { value: { cooked: string } }[]) if (hasWords(q.value.cooked)) out.push(q.value.cooked);
      for (const e of expr.expressions as Node[]) shownLiterals(e, out);
      return;
    case 'ConditionalExpression':
      shownLiterals(expr.consequent as Node, out);
      shownLiterals(expr.alternate as Node, out);
      return;
    case 'LogicalExpression':
    case 'BinaryExpression':
      shownLiterals(expr.left as Node, out);
      shownLiterals(expr.right as Node, out);
      return;
    case 'SequenceExpression':
      shownLiterals((expr.expressions as Node[]).at(-1), out);
      return;
    case 'TSAsExpression':
    case 'TSNonNullExpression':
    case 'ChainExpression':
      shownLiterals(expr.expression as Node, out);
      return;
    default:
      return; // identifiers, members, calls (their arguments are not shown as such), functions, objects
  }
}

/** Unlocalised text in a template: [where, text]. */
function templateFindings(source: string): [number, string][] {
  const found: [number, string][] = [];
  const value = (attr: Node, visible: boolean, component: boolean): void => {
    const parts = attr.value === true ? [] : Array.isArray(attr.value) ? (attr.value as Node[]) : [attr.value as Node];
    for (const part of parts) {
      if (part.type === 'Text') {
        const text = String(part.data);
        if ((visible && hasWords(text)) || (component && hasWords(text) && /\s|\p{Lu}/u.test(text))) found.push([part.start!, text]);
      } else if (part.type === 'ExpressionTag' && (visible || component)) {
        const literals: string[] = [];
        shownLiterals(part.expression as Node, literals);
        for (const text of literals) if (visible || /\s|\p{Lu}/u.test(text)) found.push([part.start!, text]);
      }
    }
  };
  const walk = (node: Node | null | undefined): void => {
    if (!node || typeof node !== 'object') return;
    switch (node.type) {
      case 'Fragment':
        for (const child of node.nodes as Node[]) walk(child);
        return;
      case 'Text':
        if (hasWords(String(node.data))) found.push([node.start!, String(node.data).trim()]);
        return;
      case 'ExpressionTag':
      case 'HtmlTag': {
        const literals: string[] = [];
        shownLiterals(node.expression as Node, literals);
        for (const text of literals) found.push([node.start!, text]);
        return;
      }
      case 'RegularElement':
      case 'SvelteElement':
      case 'Component':
      case 'SvelteComponent':
      case 'SvelteSelf':
      case 'SlotElement':
      case 'TitleElement':
        if (node.name === 'style' || node.name === 'script') return;
        for (const attr of node.attributes as Node[]) {
          if (attr.type !== 'Attribute') continue;
          const component = node.type === 'Component' || node.type === 'SvelteComponent';
          value(attr, VISIBLE_ATTRIBUTES.has(String(attr.name)), component && !/^(id|class|name|key|idPrefix|value|type|for)$/.test(String(attr.name)));
        }
        walk(node.fragment as Node);
        return;
      case 'IfBlock':
        walk(node.consequent as Node);
        walk(node.alternate as Node);
        return;
      case 'EachBlock':
        walk(node.body as Node);
        walk(node.fallback as Node);
        return;
      case 'AwaitBlock':
        walk(node.pending as Node);
        walk(node.then as Node);
        walk(node.catch as Node);
        return;
      case 'KeyBlock':
        walk(node.fragment as Node);
        return;
      case 'SnippetBlock':
        walk(node.body as Node);
        return;
      default:
        return; // comments, {@const}, {@render}, <svelte:window>, directives
    }
  };
  walk(parse(source, { modern: true }).fragment as unknown as Node);
  return found;
}

/** Sentences in TypeScript code outside t(…), imports, keys, developer errors and lines marked `i18n-exempt`. */
function scriptFindings(code: string, offset = 0): [number, string][] {
  const found: [number, string][] = [];
  const file = ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const exempt = (node: ts.Node): boolean => {
    for (let p: ts.Node | undefined = node.parent; p; p = p.parent) {
      if (ts.isImportDeclaration(p) || ts.isExportDeclaration(p)) return true;
      if (ts.isNewExpression(p) && ['Error', 'DOMException'].includes(p.expression.getText(file))) return true;
      if (ts.isCallExpression(p)) {
        const callee = ts.isPropertyAccessExpression(p.expression) ? p.expression.name.text : p.expression.getText(file);
        if (KEY_CALLS.has(callee) || p.expression.getText(file).startsWith('console.')) return true;
      }
      if (ts.isPropertyAssignment(p) && p.name === node) return true;
    }
    const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
    return /i18n-exempt/.test(code.split('\n')[line] ?? '');
  };
  const visit = (node: ts.Node): void => {
    const text = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : ts.isTemplateExpression(node) ? node.head.text + node.templateSpans.map((s) => s.literal.text).join(' ') : null;
    if (text !== null && isProse(text) && !exempt(node)) found.push([offset + node.getStart(file), text]);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function lineOf(source: string, at: number): number {
  return source.slice(0, at).split('\n').length;
}

describe('every user-visible string goes through the i18n layer', () => {
  const components = files(SRC, (n) => n.endsWith('.svelte'));
  const modules = files(SRC, (n) => n.endsWith('.ts') && !n.endsWith('.d.ts')).filter((f) => !f.includes(`${join('shared', 'i18n')}/locales`));

  it('finds the components and modules it checks', () => {
    expect(components.length).toBeGreaterThan(30);
    expect(modules.length).toBeGreaterThan(50);
  });

  it('no component template holds text that is not a message', () => {
    const found = components.flatMap((file) => {
      const source = readFileSync(file, 'utf8');
      return templateFindings(source).map(([at, text]) => `${relative(SRC, file)}:${lineOf(source, at)}: ${JSON.stringify(text)}`);
    });
    expect(found).toEqual([]);
  });

  it('no component script or work module holds a sentence outside t()', () => {
    const found = [...components, ...modules].flatMap((file) => {
      const source = readFileSync(file, 'utf8');
      const scripts = file.endsWith('.svelte') ? [...source.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => [m[1]!, m.index! + m[0].indexOf(m[1]!)] as const) : [[source, 0] as const];
      return scripts.flatMap(([code, offset]) => scriptFindings(code, offset).map(([at, text]) => `${relative(SRC, file)}:${lineOf(source, at)}: ${JSON.stringify(text)}`));
    });
    expect(found).toEqual([]);
  });

  it('catches what it is meant to catch', () => {
    const template = `<script lang="ts">const x = 1;</script>
      <h1>Welcome</h1>
      <button title="Close the dialog" aria-label={busy ? 'Saving' : t('a.b')}>{t('c')}</button>
      <Picker label="Voice model" id="tts-voice" />
      <p>{count} {count === 1 ? 'file' : 'files'}</p>
      <p>{t('x')} · {name ?? 'Untitled'} <kbd>Ctrl+Z</kbd> Voxdesk</p>`;
    expect(templateFindings(template).map(([, text]) => text)).toEqual(['Welcome', 'Close the dialog', 'Saving', 'Voice model', 'file', 'files', 'Untitled', 'Ctrl+Z']);
    const code = `import x from './Some thing.js';
      app.toast('Download started.');
      const label = t('Not a sentence either');
      throw new Error('A developer message.');
      const selector = '[data-x="Y z"]';
      const shown = ok ? \`Saved \${n} files.\` : 'Nothing happened';`;
    expect(scriptFindings(code).map(([, text]) => text)).toEqual(['Download started.', 'Saved  files.', 'Nothing happened']);
  });
});
