/**
 * The text of a .docx as a person reads it: the package is unzipped (jszip) and the runs of word/document.xml are
 * joined, one line per paragraph. Enough to check that an export shows the words and names it should.
 */
import JSZip from 'jszip';

export async function docxText(docx: Uint8Array): Promise<string> {
  const xml = await (await JSZip.loadAsync(docx)).file('word/document.xml')?.async('string');
  if (xml === undefined) throw new Error('not a Word document: word/document.xml is missing');
  const decode = (s: string): string => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
  return xml
    .split(/<\/w:p>/)
    .map((p) => [...p.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((m) => decode(m[1]!)).join(''))
    .filter((line) => line.trim())
    .join('\n');
}
