/** Pure logic of the renderer (src-renderer/src/lib), run under plain Node. */
import { describe, expect, it } from 'vitest';
import { Backoff, fingerprint } from '../../../src-renderer/src/lib/backoff.js';
import { describeError, errorText, isWaitingCode } from '../../../src-renderer/src/lib/error-messages.js';
import { formatBytes, formatClock, formatLanguages, formatUsd } from '../../../src-renderer/src/lib/format.js';
import { finishedSentences } from '../../../src-renderer/src/lib/live-sentences.js';
import { pcm16ToFloat32, scheduleStart } from '../../../src-renderer/src/lib/pcm-schedule.js';
import { defaultValues, fieldsFromSchema, paramsToSend } from '../../../src-renderer/src/lib/schema-form.js';
import { shortcutFor } from '../../../src-renderer/src/lib/shortcuts.js';
import { estimateSpeechSeconds, splitBatchLines } from '../../../src-renderer/src/lib/speech-text.js';
import { matchingSegments, playingWord, timedWords, turnsOf, wordAt } from '../../../src-renderer/src/lib/transcript-turns.js';
import { speakerIds, speakerLabel, transcriptStart } from '../../../src-renderer/src/lib/transcript-editor.svelte.js';
import { snippetParts } from '../../../src-renderer/src/lib/library-search.svelte.js';
import { exportQuery } from '../../../src-renderer/src/lib/transcript-api.js';
import { outOfView, PlaybackFollower } from '../../../src-renderer/src/lib/follow-playback.js';
import { matchJob, planUploads } from '../../../src-renderer/src/lib/upload-plan.js';
import { JOB_ERROR_CODES, REQUEST_ERRORS, WAITING_CODES } from '../../../src-main/common/errors.js';
import { isMediaName } from '../../../src-renderer/src/lib/dropped-files.js';

const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }> = {}) => ({
  key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods,
});

describe('shortcuts', () => {
  it('maps Ctrl/Cmd+1..7, Ctrl/Cmd+K, Ctrl+Enter and Esc', () => {
    expect(shortcutFor(key('1', { ctrlKey: true }))).toEqual({ kind: 'tab', tab: 'transcribe' });
    expect(shortcutFor(key('6', { metaKey: true }))).toEqual({ kind: 'tab', tab: 'usage' });
    expect(shortcutFor(key('7', { metaKey: true }))).toEqual({ kind: 'tab', tab: 'settings' });
    expect(shortcutFor(key('Enter', { ctrlKey: true }))).toEqual({ kind: 'submit' });
    expect(shortcutFor(key('Escape'))).toEqual({ kind: 'cancel' });
    expect(shortcutFor(key('k', { ctrlKey: true }))).toEqual({ kind: 'search' });
    expect(shortcutFor(key('K', { metaKey: true }))).toEqual({ kind: 'search' });
    expect(shortcutFor(key('k'))).toBeNull();
    expect(shortcutFor(key('k', { ctrlKey: true, shiftKey: true }))).toBeNull();
    expect(shortcutFor(key('8', { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(key('1'))).toBeNull();
    expect(shortcutFor(key('1', { ctrlKey: true, altKey: true }))).toBeNull();
  });

  it('maps Ctrl/Cmd+Shift+Space to dictation; Space alone or with Ctrl only is typing', () => {
    expect(shortcutFor(key(' ', { ctrlKey: true, shiftKey: true }))).toEqual({ kind: 'dictate' });
    expect(shortcutFor(key(' ', { metaKey: true, shiftKey: true }))).toEqual({ kind: 'dictate' });
    expect(shortcutFor(key(' ', { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(key(' ', { shiftKey: true }))).toBeNull();
  });
});

describe('schema form', () => {
  const schema = {
    type: 'object',
    required: ['format'],
    properties: {
      voice: { type: 'string', enum: ['en-us', 'fr'], default: 'en-us', 'x-labels': { 'en-us': 'English (America)', fr: 'French' } },
      speed: { type: 'number', minimum: 0.5, maximum: 2, default: 1 },
      pitch: { type: 'integer', minimum: 0, maximum: 100, default: 50 },
      seed: { type: 'integer' },
      diarize: { type: 'boolean', default: false },
      prompt: { type: 'string' },
      format: { type: 'string', enum: ['wav', 'mp3'] },
      channels: { enum: [1, 2, 'source'], default: 'source' },
      rate: { anyOf: [{ type: 'integer' }, { const: 'source' }] },
      nested: { type: 'object' },
    },
  };
  const fields = fieldsFromSchema(schema);

  it('draws enum → select, bounded number → slider, number → input, boolean → toggle, string → text', () => {
    const kinds = Object.fromEntries(fields.map((f) => [f.name, f.kind]));
    expect(kinds).toEqual({ voice: 'select', speed: 'slider', pitch: 'slider', seed: 'number', diarize: 'toggle', prompt: 'text', format: 'select', channels: 'select' });
    expect(fields.find((f) => f.name === 'voice')!.options).toEqual([{ label: 'English (America)', value: 'en-us' }, { label: 'French', value: 'fr' }]);
    expect(fields.find((f) => f.name === 'pitch')!.step).toBe(1);
  });

  it('starts from the schema defaults and sends only changed, typed values', () => {
    const values = defaultValues(fields);
    expect(values).toEqual({ voice: 'en-us', speed: 1, pitch: 50, diarize: false, format: 'wav', channels: 'source' });
    expect(paramsToSend(fields, values)).toEqual({ format: 'wav' });
    expect(paramsToSend(fields, { ...values, channels: '2', speed: '1.5', voice: 'fr', seed: '7', prompt: '' })).toEqual({
      channels: 2, speed: 1.5, voice: 'fr', seed: 7, format: 'wav',
    });
  });

  it('copes with a missing or empty schema', () => {
    expect(fieldsFromSchema(undefined)).toEqual([]);
    expect(fieldsFromSchema({ type: 'object' })).toEqual([]);
  });
});

describe('polling backoff', () => {
  it('backs off while nothing changes and snaps back on change', () => {
    const b = new Backoff({ minMs: 500, maxMs: 4000, factor: 2 });
    expect([b.next(false), b.next(false), b.next(false), b.next(false)]).toEqual([1000, 2000, 4000, 4000]);
    expect(b.next(true)).toBe(500);
    expect(fingerprint([{ id: 'a', status: 'running', progress: 0.5 }])).not.toBe(fingerprint([{ id: 'a', status: 'running', progress: 0.6 }]));
  });
});

describe('error sentences', () => {
  it('has a plain sentence for every documented code', () => {
    for (const code of [...Object.keys(REQUEST_ERRORS), ...JOB_ERROR_CODES, ...WAITING_CODES]) {
      const text = describeError(code);
      expect(text, code).not.toMatch(/_/);
      expect(text.endsWith('.'), code).toBe(true);
    }
    expect(describeError('something_new', 'The service said so.')).toBe('The service said so.');
    expect(describeError('something_new')).toBe('Failed (something new).');
    expect(isWaitingCode('waiting_for_network')).toBe(true);
    expect(isWaitingCode('engine_failed')).toBe(false);
    expect(errorText(Object.assign(new Error('raw'), { code: 'file_too_large' }))).toBe(describeError('file_too_large'));
    expect(errorText(new Error('Failed to fetch'))).toBe('Failed to fetch');
    expect(errorText('boom')).toBe('boom');
  });
});

describe('transcript', () => {
  const segments = [
    { index: 0, start: 0, end: 1, text: 'hello there', speaker: 'SPEAKER_0', words: [{ word: 'hello', start: 0, end: 0.4 }, { word: 'there', start: 0.5, end: 1 }] },
    { index: 1, start: 1.1, end: 1.15, text: 'um', speaker: 'SPEAKER_0', words: [] },
    { index: 2, start: 1.2, end: 2.5, text: 'general kenobi', speaker: 'SPEAKER_1', words: [{ word: 'general', start: 1.2, end: 1.8 }, { word: 'kenobi', start: 1.9, end: 2.5 }] },
    { index: 3, start: 3, end: 4, text: 'you are a bold one', speaker: 'SPEAKER_0', words: [] },
  ];
  const transcript = { job_id: 'j', revision: 2, latest_revision: 2, created_at: '2026-01-01T00:00:00Z', speakers: { SPEAKER_0: 'SPEAKER_0', SPEAKER_1: 'Obi-Wan' }, segments };

  it('groups consecutive segments of one speaker into turns', () => {
    expect(turnsOf(segments).map((t) => [t.speaker, t.start, t.segments.map((s) => s.index)])).toEqual([
      ['SPEAKER_0', 0, [0, 1]],
      ['SPEAKER_1', 1.2, [2]],
      ['SPEAKER_0', 3, [3]],
    ]);
    expect(turnsOf([])).toEqual([]);
  });

  it('finds the word being played, a segment without word timings counting as one word', () => {
    const words = timedWords(segments);
    expect(words).toHaveLength(6);
    expect(wordAt(words, 0.45)).toBe(-1);
    expect(playingWord(words, 1.95)).toMatchObject({ segment: 2, position: 1, word: 'kenobi' });
    expect(playingWord(words, 1.12)).toMatchObject({ segment: 1, position: -1 });
    expect(playingWord(words, 3.5)).toMatchObject({ segment: 3, position: -1 });
    expect(playingWord(words, -1)).toBeNull();
  });

  it('searches segments for every term, case-insensitively', () => {
    expect([...matchingSegments(segments, 'KENOBI')]).toEqual([2]);
    expect([...matchingSegments(segments, 'hello kenobi')]).toEqual([]);
    expect([...matchingSegments(segments, '  ')]).toEqual([]);
  });

  it('names speakers: the name a person gave, else "Speaker N" counted from 1', () => {
    expect(speakerIds(transcript)).toEqual(['SPEAKER_0', 'SPEAKER_1']);
    expect(speakerLabel(transcript, 'SPEAKER_1')).toBe('Obi-Wan');
    expect(speakerLabel(transcript, 'SPEAKER_0')).toBe('Speaker 1');
    expect(speakerLabel(transcript, 'narrator')).toBe('narrator');
    expect(speakerLabel({ speakers: { SPEAKER_2: 'SPEAKER_2' } }, 'SPEAKER_2')).toBe('Speaker 3'); // unnamed: mapped to itself
    expect(speakerLabel(transcript, null)).toBe('');
  });

  it('shortens a transcript to its opening words for the Jobs list', () => {
    expect(transcriptStart('  short\n text ')).toBe('short text');
    expect(transcriptStart(null)).toBe('');
    const long = transcriptStart('and so my fellow americans ask not what your country can do for you ask what you can do', 40);
    expect(long).toBe('and so my fellow americans ask not what…');
    expect(transcriptStart('x'.repeat(100), 10)).toBe(`${'x'.repeat(10)}…`);
  });

  it('draws search snippets from their <mark>s as text, never as HTML', () => {
    expect(snippetParts('…the <mark>budget</mark> for &lt;b&gt;next&lt;/b&gt; <mark>year</mark> &amp; &quot;more&quot;')).toEqual([
      { text: '…the ', hit: false },
      { text: 'budget', hit: true },
      { text: ' for <b>next</b> ', hit: false },
      { text: 'year', hit: true },
      { text: ' & "more"', hit: false },
    ]);
    expect(snippetParts('an <mark>unclosed mark')).toEqual([{ text: 'an <mark>unclosed mark', hit: false }]);
    expect(snippetParts('')).toEqual([]);
  });

  it('asks exports for subtitle line options only for subtitles, and only those set', () => {
    expect(exportQuery('srt', { max_chars_per_line: 32, max_lines: 2 })).toBe('format=srt&max_chars_per_line=32&max_lines=2');
    expect(exportQuery('vtt', { max_chars_per_line: null, max_lines: 1 })).toBe('format=vtt&max_lines=1');
    expect(exportQuery('docx', { max_chars_per_line: 32, max_lines: 2 })).toBe('format=docx');
    expect(exportQuery('txt')).toBe('format=txt');
  });

  it('follows playback except while editing and for a while after the person scrolled', () => {
    const f = new PlaybackFollower(1000);
    expect(f.shouldFollow(0, false)).toBe(true);
    expect(f.shouldFollow(0, true)).toBe(false);
    f.willScroll(100, 400);
    f.scrolled(300); // our own scroll
    expect(f.shouldFollow(300, false)).toBe(true);
    f.scrolled(600); // the person's
    expect(f.shouldFollow(1500, false)).toBe(false);
    expect(f.shouldFollow(1600, false)).toBe(true);
    f.userMoved(2000);
    expect(f.shouldFollow(2500, false)).toBe(false);
    expect(outOfView({ top: 10, bottom: 30 }, { top: 0, bottom: 100 })).toBe(true);
    expect(outOfView({ top: 40, bottom: 60 }, { top: 0, bottom: 100 })).toBe(false);
    expect(outOfView({ top: 90, bottom: 110 }, { top: 0, bottom: 100 })).toBe(true);
  });
});

describe('uploads', () => {
  it('sends one file alone and many in batches of at most 50', () => {
    expect(planUploads([])).toEqual([]);
    expect(planUploads([1])).toEqual([{ kind: 'single', items: [1] }]);
    const plans = planUploads(Array.from({ length: 101 }, (_, i) => i));
    expect(plans.map((p) => [p.kind, p.items.length])).toEqual([['batch', 50], ['batch', 50], ['single', 1]]);
  });

  it('matches a held POST to its job by name and time, never twice', () => {
    const jobs = [
      { id: 'old', name: 'a.wav', created_at: '2026-01-01T00:00:00Z' },
      { id: 'j1', name: 'a.wav', created_at: '2026-01-01T00:10:00Z' },
      { id: 'j2', name: 'a.wav', created_at: '2026-01-01T00:10:01Z' },
    ];
    const sent = Date.parse('2026-01-01T00:10:00Z');
    expect(matchJob(jobs, 'a.wav', sent, new Set())?.id).toBe('j1');
    expect(matchJob(jobs, 'a.wav', sent, new Set(['j1']))?.id).toBe('j2');
    expect(matchJob(jobs, 'b.wav', sent, new Set())).toBeUndefined();
  });

  it('keeps media files when walking folders', () => {
    expect(isMediaName('Interview 01.M4A')).toBe(true);
    expect(isMediaName('notes.txt')).toBe(false);
  });
});

describe('live helpers', () => {
  it('schedules frames back to back with a jitter lead after an underrun', () => {
    expect(scheduleStart(10, 0, 0.12)).toBeCloseTo(10.12);
    expect(scheduleStart(10, 10.5, 0.12)).toBe(10.5);
    expect(scheduleStart(10, 10.001, 0.12)).toBeCloseTo(10.12);
  });

  it('converts PCM16 to float', () => {
    const pcm = new Int16Array([0, 16384, -32768, 32767]);
    expect(Array.from(pcm16ToFloat32(pcm.buffer))).toEqual([0, 0.5, -1, 32767 / 32768]);
    expect(pcm16ToFloat32(new Uint8Array([1, 2, 3]).buffer)).toHaveLength(1);
  });

  it('speaks finished sentences as they are typed', () => {
    expect(finishedSentences('Hello there', 0)).toBeNull();
    expect(finishedSentences('Hello there. How', 0)).toEqual({ chunk: 'Hello there.', end: 13 });
    expect(finishedSentences('Hello there. How are you? Fine', 13)).toEqual({ chunk: 'How are you?', end: 26 });
    expect(finishedSentences('Line one\nline', 0)).toEqual({ chunk: 'Line one', end: 9 });
  });

  it('estimates speaking time and splits batch lines', () => {
    expect(estimateSpeechSeconds('x'.repeat(30))).toBe(2);
    expect(estimateSpeechSeconds('   ')).toBe(0);
    expect(splitBatchLines('one\n\n  two \r\nthree')).toEqual(['one', 'two', 'three']);
  });
});

describe('formatting', () => {
  it('formats clocks, sizes, prices and language lists', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(71.9)).toBe('1:11');
    expect(formatClock(3723)).toBe('1:02:03');
    expect(formatBytes(103_000_000)).toBe('103 MB');
    expect(formatBytes(1500)).toBe('1.5 KB');
    expect(formatBytes(null)).toBe('—');
    expect(formatUsd(0)).toBe('Free');
    expect(formatUsd(0.0533)).toBe('$0.05');
    expect(formatUsd(0.0012)).toBe('$0.0012');
    expect(formatLanguages(['en', 'de', 'fr', 'es', 'it', 'pt'])).toBe('en, de, fr, es +2');
    expect(formatLanguages([])).toBe('any');
  });
});
