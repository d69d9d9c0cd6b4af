/**
 * An AI action's answer as a file (GET /v1/speech-to-text/{id}/ai/{ai_job_id}/export?format=md|docx): a title, a line
 * saying what it was made from, then the answer as the model wrote it (its `[mm:ss]` citations kept). Markdown is the
 * answer's own shape; the Word file has one paragraph per line, `- ` bullets as list items. Pure and browser-safe
 * like the transcript exports (transcript-docx.ts).
 */
import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';

export const AI_EXPORT_FORMATS = ['md', 'docx'] as const;
export type AiExportFormat = (typeof AI_EXPORT_FORMATS)[number];

export interface AiExportInput {
  title: string;
  /** "From interview.wav, revision 2, by llama3.2 on 2026-11-27". */
  subtitle: string;
  text: string;
}

export function aiMarkdown(input: AiExportInput): string {
  return `# ${input.title}\n\n_${input.subtitle}_\n\n${input.text.trim()}\n`;
}

export async function aiDocx(input: AiExportInput): Promise<Uint8Array<ArrayBuffer>> {
  const body = input.text
    .trim()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const bullet = /^\s*[-*]\s+(.*)$/.exec(line);
      const heading = /^\s*#{1,6}\s+(.*)$/.exec(line);
      if (heading) return new Paragraph({ text: heading[1]!, heading: HeadingLevel.HEADING_2 });
      if (bullet) return new Paragraph({ children: [new TextRun(bullet[1]!)], bullet: { level: 0 } });
      return new Paragraph({ spacing: { after: 120 }, children: [new TextRun(line.trim())] });
    });
  const doc = new Document({
    title: input.title,
    creator: 'Voxdesk',
    sections: [
      {
        children: [
          new Paragraph({ text: input.title, heading: HeadingLevel.TITLE }),
          new Paragraph({ spacing: { after: 240 }, children: [new TextRun({ text: input.subtitle, italics: true, color: '595959' })] }),
          ...body,
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toArrayBuffer(doc));
}
