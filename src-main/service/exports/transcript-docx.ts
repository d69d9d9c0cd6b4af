/**
 * The Word export (`export?format=docx`), written with the `docx` package: the job's name as the title, then one
 * paragraph per speaker turn — the speaker's name in bold and the time it starts, then what was said — laid out
 * from the same turns as the readable text export (common/transcript-readable.ts).
 */
import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import type { JobResult } from '../../common/api-types.js';
import { clockTime, speakerTurns } from '../../common/transcript-readable.js';

export const DOCX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export async function transcriptDocx(result: JobResult, title: string): Promise<Buffer> {
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
  return Packer.toBuffer(doc);
}
