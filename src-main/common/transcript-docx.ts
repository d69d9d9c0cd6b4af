/**
 * The Word export, written with the `docx` package (Node and browser, so it lives with the other layouts): the
 * title, then one paragraph per speaker turn — the speaker's name in bold and the time it starts, then what was
 * said — laid out from the same turns as the readable text export (common/transcript-readable.ts). Bytes, not a
 * Buffer, so nothing here needs node.
 */
import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import type { JobResult } from './api-types.js';
import { clockTime, speakerTurns } from './transcript-readable.js';

export async function transcriptDocx(result: JobResult, title: string): Promise<Uint8Array<ArrayBuffer>> {
  const turns = speakerTurns(result);
  const paragraphs = turns.map(
    (turn) =>
      new Paragraph({
        spacing: { after: 160 },
        children: [
          ...(turn.speaker ? [new TextRun({ text: turn.speaker, bold: true }), new TextRun({ text: '  ' })] : []),
          new TextRun({ text: clockTime(turn.start), color: '595959' }),
          new TextRun({ text: turn.text, break: 1 }),
        ],
      }),
  );
  const doc = new Document({
    title,
    creator: 'Voxdesk',
    sections: [{ children: [new Paragraph({ text: title, heading: HeadingLevel.TITLE }), ...paragraphs] }],
  });
  return new Uint8Array(await Packer.toArrayBuffer(doc));
}
