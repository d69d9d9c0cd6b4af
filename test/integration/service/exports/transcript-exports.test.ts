/**
 * Exports of the latest revision over real HTTP: DOCX (unzipped and its text read), readable TXT, SRT/VTT with
 * max_chars_per_line and max_lines, JSON, all with the edits and the speakers' names; bad options refused.
 */
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { Client, expectError, json } from '../../../helpers/http-client.js';
import { diarizedResult, insertJob } from '../../../helpers/transcript-jobs.js';

let t: TestService;
let api: Client;
let id: string;
beforeAll(async () => {
  t = await startTestService({ workers: 1 });
  api = new Client(t.url, t.key);
  const accountId = (await t.service.keys.find(t.key))!.accountId;
  id = insertJob(t.service.repos, {
    accountId,
    name: 'Quarterly review.wav',
    result: diarizedResult([
      { start: 0, end: 4, text: 'Welcome to the quarterly review of our regional sales.', speaker: 'SPEAKER_0' },
      { start: 4, end: 12, text: 'Thanks. Revenue grew by twelve percent in the northern region while costs stayed flat over the whole period.', speaker: 'SPEAKER_1' },
      { start: 12, end: 14, text: 'Great news.', speaker: 'SPEAKER_0' },
    ]),
  });
  const edit = { base_revision: 0, speakers: { SPEAKER_0: 'Alice Moreau', SPEAKER_1: 'Bob' }, segments: [{ index: 2, text: 'Great news, Bob.' }] };
  await json(fetch(`${t.url}/v1/speech-to-text/${id}/transcript`, { method: 'PATCH', headers: api.headers({ 'content-type': 'application/json' }), body: JSON.stringify(edit) }));
});
afterAll(async () => {
  await t?.stop();
});

const exported = (query: string): Promise<Response> => api.get(`/v1/speech-to-text/${id}/export?${query}`);

/** The visible text of word/document.xml: one line per paragraph (runs joined, line breaks kept). */
async function docxParagraphs(bytes: ArrayBuffer): Promise<string[]> {
  const zip = await JSZip.loadAsync(bytes);
  const xml = await zip.file('word/document.xml')!.async('string');
  return [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((p) =>
    [...p[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>|<w:br\/>/g)].map((m) => (m[0] === '<w:br/>' ? '\n' : m[1])).join(''),
  );
}

describe('exports for people', () => {
  it('DOCX: a title, then one paragraph per speaker turn with the name, the time and the edited text', async () => {
    const response = await exported('format=docx');
    expect(response.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(response.headers.get('content-disposition')).toContain('Quarterly review.docx');
    expect(await docxParagraphs(await response.arrayBuffer())).toEqual([
      'Quarterly review',
      'Alice Moreau  00:00\nWelcome to the quarterly review of our regional sales.',
      'Bob  00:04\nThanks. Revenue grew by twelve percent in the northern region while costs stayed flat over the whole period.',
      'Alice Moreau  00:12\nGreat news, Bob.',
    ]);
  });

  it('TXT: the title and the speaker turns with names and times', async () => {
    const response = await exported('format=txt');
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe(
      'Quarterly review\n\n[00:00] Alice Moreau\nWelcome to the quarterly review of our regional sales.\n\n' +
        '[00:04] Bob\nThanks. Revenue grew by twelve percent in the northern region while costs stayed flat over the whole period.\n\n' +
        '[00:12] Alice Moreau\nGreat news, Bob.\n',
    );
  });

  it('SRT and VTT use the names and re-wrap cues to max_chars_per_line and max_lines', async () => {
    const srt = await (await exported('format=srt')).text();
    expect(srt).toContain('[Alice Moreau] Welcome');
    expect(srt).toContain('Great news, Bob.');
    const narrow = await (await exported('format=srt&max_chars_per_line=20&max_lines=1')).text();
    const cues = narrow.trim().split('\n\n').map((cue) => cue.split('\n'));
    expect(cues.length).toBeGreaterThan(6);
    for (const [n, times, ...lines] of cues) {
      expect(n).toMatch(/^\d+$/);
      expect(times).toMatch(/^\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}$/);
      expect(lines).toHaveLength(1);
      expect(lines[0]!.replace(/^\[[^\]]+\] /, '').length).toBeLessThanOrEqual(20);
    }
    // Every word is still there, in order.
    expect(cues.map(([, , ...lines]) => lines.join(' ').replace(/^\[[^\]]+\] /, '')).join(' ')).toBe(
      'Welcome to the quarterly review of our regional sales. Thanks. Revenue grew by twelve percent in the northern region while costs stayed flat over the whole period. Great news, Bob.',
    );
    const vtt = await (await exported('format=vtt&max_chars_per_line=30&max_lines=3')).text();
    expect(vtt.startsWith('WEBVTT\n')).toBe(true);
    expect(vtt).toContain('<v Bob>');
    for (const line of vtt.split('\n').filter((l) => l && !l.includes('-->') && l !== 'WEBVTT')) {
      expect(line.replace(/^<v [^>]+>/, '').length).toBeLessThanOrEqual(30);
    }
  });

  it('JSON carries the latest text and the names', async () => {
    const body = (await (await exported('format=json')).json()) as { text: string; segments: { speaker: string }[] };
    expect(body.text).toContain('Great news, Bob.');
    expect(body.segments.map((s) => s.speaker)).toEqual(['Alice Moreau', 'Bob', 'Alice Moreau']);
  });

  it('refuses bad subtitle options and options on formats that have no lines', async () => {
    for (const query of ['max_chars_per_line=9', 'max_chars_per_line=201', 'max_chars_per_line=abc', 'max_lines=0', 'max_lines=6', 'max_lines=1.5', 'max_lines=1&max_lines=2']) {
      await expectError(exported(`format=srt&${query}`), 400, 'invalid_request');
    }
    await expectError(exported('format=txt&max_lines=2'), 400, 'invalid_request');
    await expectError(exported('format=docx&max_chars_per_line=30'), 400, 'invalid_request');
    await expectError(exported('format=pdf'), 400, 'invalid_request');
  });
});
