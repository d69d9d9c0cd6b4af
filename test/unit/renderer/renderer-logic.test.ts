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
import { paragraphs, searchParagraphs, wordAt } from '../../../src-renderer/src/lib/transcript.js';
import { matchJob, planUploads } from '../../../src-renderer/src/lib/upload-plan.js';
import { JOB_ERROR_CODES, REQUEST_ERRORS, WAITING_CODES } from '../../../src-main/common/errors.js';
import { isMediaName } from '../../../src-renderer/src/lib/dropped-files.js';

const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }> = {}) => ({
  key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods,
});

describe('shortcuts', () => {
  it('maps Ctrl/Cmd+1..6, Ctrl+Enter and Esc', () => {
    expect(shortcutFor(key('1', { ctrlKey: true }))).toEqual({ kind: 'tab', tab: 'transcribe' });
    expect(shortcutFor(key('6', { metaKey: true }))).toEqual({ kind: 'tab', tab: 'settings' });
    expect(shortcutFor(key('Enter', { ctrlKey: true }))).toEqual({ kind: 'submit' });
    expect(shortcutFor(key('Escape'))).toEqual({ kind: 'cancel' });
    expect(shortcutFor(key('7', { ctrlKey: true }))).toBeNull();
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
  const result = {
    text: 'hello there general kenobi',
    segments: [
      { id: 0, start: 0, end: 1, text: 'hello there', speaker: 'SPEAKER_0' },
      { id: 1, start: 1.2, end: 2.5, text: 'general kenobi', speaker: 'SPEAKER_1' },
    ],
    words: [
      { word: 'hello', start: 0, end: 0.4, speaker: 'SPEAKER_0' },
      { word: 'there', start: 0.5, end: 1, speaker: 'SPEAKER_0' },
      { word: 'general', start: 1.2, end: 1.8, speaker: 'SPEAKER_1' },
      { word: 'kenobi', start: 1.9, end: 2.5, speaker: 'SPEAKER_1' },
    ],
  };

  it('groups words into paragraphs per speaker', () => {
    const p = paragraphs(result);
    expect(p.map((x) => [x.speaker, x.text, x.start, x.end])).toEqual([
      ['SPEAKER_0', 'hello there', 0, 1],
      ['SPEAKER_1', 'general kenobi', 1.2, 2.5],
    ]);
    expect(p[1]!.words.map((w) => w.index)).toEqual([2, 3]);
  });

  it('falls back to segments, then to plain text', () => {
    expect(paragraphs({ segments: result.segments }).map((p) => p.text)).toEqual(['hello there', 'general kenobi']);
    expect(paragraphs({ text: ' only text ' }).map((p) => p.text)).toEqual(['only text']);
    expect(paragraphs(null)).toEqual([]);
  });

  it('finds the word at a time and searches paragraphs', () => {
    expect(wordAt(result.words, 0.45)).toBe(-1);
    expect(wordAt(result.words, 1.95)).toBe(3);
    expect(searchParagraphs(paragraphs(result), 'KENOBI')).toEqual([1]);
    expect(searchParagraphs(paragraphs(result), 'hello kenobi')).toEqual([]);
    expect(searchParagraphs(paragraphs(result), '  ')).toEqual([]);
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
