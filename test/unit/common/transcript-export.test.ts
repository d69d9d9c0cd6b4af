/**
 * The one export renderer (common/transcript-export.ts): every format's bytes and Content-Type, the readable TXT
 * golden with and without speakers, a DOCX that unzips to the same turns, cue options reaching the subtitles only.
 */
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import type { JobResult } from '../../../src-main/common/api-types.js';
import { exportTitle, renderTranscript } from '../../../src-main/common/transcript-export.js';
import { toJson, toSrt, toVtt, TRANSCRIPT_CONTENT_TYPES, TRANSCRIPT_FORMATS } from '../../../src-main/common/transcript-formats.js';

const named: JobResult = {
  text: 'Hello there. General Kenobi! You are a bold one.',
  duration: 70,
  segments: [
    { id: 0, start: 0.5, end: 2, text: 'Hello there.', speaker: 'Obi-Wan' },
    { id: 1, start: 3, end: 9, text: 'General Kenobi!', speaker: 'Grievous' },
    { id: 2, start: 62, end: 66, text: 'You are a bold one.', speaker: 'Grievous' },
  ],
};
const plain: JobResult = { text: 'one two', segments: [{ id: 0, start: 0, end: 1, text: 'one' }, { id: 1, start: 65, end: 66, text: ' two ' }] };
const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe('renderTranscript', () => {
  it('TXT: the title, then each speaker turn under its name and start time (golden)', async () => {
    const file = await renderTranscript({ format: 'txt', result: named, title: 'Duel' });
    expect(file.contentType).toBe('text/plain; charset=utf-8');
    expect(decode(file.bytes)).toBe('Duel\n\n[00:00] Obi-Wan\nHello there.\n\n[00:03] Grievous\nGeneral Kenobi! You are a bold one.\n');
  });

  it('TXT without speakers: one timed line per segment', async () => {
    expect(decode((await renderTranscript({ format: 'txt', result: plain, title: 'Memo' })).bytes)).toBe('Memo\n\n[00:00] one\n[01:05] two\n');
    expect(decode((await renderTranscript({ format: 'txt', result: { text: '' }, title: 'Empty' })).bytes)).toBe('Empty\n\n');
  });

  it('DOCX: a Word file whose paragraphs are the title and the same turns', async () => {
    const file = await renderTranscript({ format: 'docx', result: named, title: 'Duel' });
    expect(file.contentType).toBe(TRANSCRIPT_CONTENT_TYPES.docx);
    const xml = await (await JSZip.loadAsync(file.bytes)).file('word/document.xml')!.async('string');
    const texts = [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]);
    expect(texts).toEqual(['Duel', 'Obi-Wan', '  ', '00:00', 'Hello there.', 'Grievous', '  ', '00:03', 'General Kenobi! You are a bold one.']);
  });

  it('SRT, VTT and JSON are the subtitle and JSON layouts; cue options reach the subtitles', async () => {
    const cues = { lineChars: 12, lines: 1 };
    expect(decode((await renderTranscript({ format: 'srt', result: named, title: 'x', cues })).bytes)).toBe(toSrt(named, cues));
    expect(decode((await renderTranscript({ format: 'vtt', result: named, title: 'x' })).bytes)).toBe(toVtt(named));
    expect(decode((await renderTranscript({ format: 'json', result: named, title: 'x', cues })).bytes)).toBe(toJson(named));
  });

  it('every format has a Content-Type', async () => {
    for (const format of TRANSCRIPT_FORMATS) {
      expect((await renderTranscript({ format, result: plain, title: 't' })).contentType).toBe(TRANSCRIPT_CONTENT_TYPES[format]);
    }
  });
});

describe('exportTitle', () => {
  it('is the job name without its extension, else the job id', () => {
    expect(exportTitle('Memo 2.MP3', 'job_1')).toBe('Memo 2');
    expect(exportTitle('Quarterly review', 'job_1')).toBe('Quarterly review');
    expect(exportTitle(null, 'job_1')).toBe('job_1');
  });
  it('is one line whatever the name holds (CR, LF, tabs), and never empty', () => {
    expect(exportTitle('Board\r\nmeeting\t2024.wav', 'job_1')).toBe('Board meeting 2024');
    expect(exportTitle('\r\n', 'job_1')).toBe('job_1');
  });
  it('a TXT and a DOCX export of a name with CR/LF have a one-line title', async () => {
    const title = exportTitle('Line one\r\nLine two.wav', 'job_1');
    const txt = new TextDecoder().decode((await renderTranscript({ format: 'txt', result: { text: 'hello' }, title })).bytes);
    expect(txt.split('\n')[0]).toBe('Line one Line two');
    const docx = await JSZip.loadAsync((await renderTranscript({ format: 'docx', result: { text: 'hello' }, title })).bytes);
    const xml = await docx.file('word/document.xml')!.async('string');
    expect(xml).toContain('Line one Line two');
    expect(xml).not.toMatch(/Line one\s*\r|\r\n/);
  });
});
