/**
 * How deep user JSON may nest, checked without recursion before anything recurses over it. JSON.parse itself copes
 * with millions of levels (it took 2.4 s for the 4 million an 8 MB body can hold), but structuredClone, Ajv,
 * JSON.stringify and the engines' readers recurse over values and overflow the stack near 2,000 levels: a `params`
 * object nested that deep answered 500 internal_error (issue 26, item 9). No field of the API nests more than a few
 * levels, so a small bound costs nothing and turns the overflow into a 400 that says what was wrong.
 */

/** Deepest nesting of objects and arrays a JSON request body may have. Default 32. */
export const MAX_JSON_DEPTH = 32;

/** Where JSON text first nests too deep: the depth reached, and the top-level field it happened in (null: the top). */
export interface TooDeep {
  depth: number;
  field: string | null;
}

/**
 * Where `text` first nests past `max` levels (1 for `{}` or `[]`), scanning its characters once (brackets inside
 * strings do not count); null when it never does. Text that is not valid JSON is left to JSON.parse to refuse.
 */
export function textNestsPast(text: string, max: number): TooDeep | null {
  let depth = 0;
  let inString = false;
  let stringStart = -1;
  let lastTopString: string | null = null;
  let field: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c /* \ */) i++;
      else if (ch === 0x22 /* " */) {
        inString = false;
        if (depth === 1) lastTopString = text.slice(stringStart, i + 1);
      }
      continue;
    }
    if (ch === 0x22) {
      inString = true;
      stringStart = i;
    } else if (ch === 0x3a /* : */ && depth === 1) {
      field = lastTopString === null ? null : keyOf(lastTopString);
    } else if (ch === 0x7b /* { */ || ch === 0x5b /* [ */) {
      if (++depth > max) return { depth, field: depth > 1 ? field : null };
    } else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) depth--;
  }
  return null;
}

function keyOf(quoted: string): string | null {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return null;
  }
}

/**
 * The path (`a.b[0].c`) of the first object or array of `value` that nests past `max` levels below it, walking it
 * with an explicit stack; null when none does. For values that did not come from JSON text (a form's params object).
 */
export function valueNestsPast(value: unknown, max: number): string | null {
  const stack: Array<{ node: unknown; depth: number; path: string }> = [{ node: value, depth: 0, path: '' }];
  while (stack.length > 0) {
    const { node, depth, path } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > max) return path || '(top)';
    const entries: Array<[string, unknown]> = Array.isArray(node) ? node.map((v, i) => [`[${i}]`, v]) : Object.entries(node).map(([k, v]) => [path ? `.${k}` : k, v]);
    for (const [key, child] of entries) {
      if (child !== null && typeof child === 'object') stack.push({ node: child, depth: depth + 1, path: `${path}${key}` });
    }
  }
  return null;
}
