import { describe, expect, it } from 'vitest';
import type { JobResult } from '../../../src-main/common/api-types.js';
import { averageLogProbability, languageName, openAiTranscript, transcriptDeltas } from '../../../src-main/common/openai-transcript.js';

const result: JobResult = {
  text: 'And so my fellow Americans, ask not. What your country can do for you.',
  language: 'en',
  duration: 11,
  segments: [
    { id: 0, start: 0.32, end: 3.5, text: 'And so my fellow Americans, ask not.', speaker: 'SPEAKER_1' },
    { id: 1, start: 4.1, end: 10.98, text: 'What your country can do for you.', speaker: 'SPEAKER_0' },
  ],
  words: [
    { word: 'And', start: 0.32, end: 0.5 },
    { word: 'so', start: 0.5, end: 0.7 },
  ],
};
const options = { task: 'transcribe' as const, granularities: [] as ('word' | 'segment')[], language: null };

describe('OpenAI transcript shapes', () => {
  it('json: text and usage in whole seconds', () => {
    expect(openAiTranscript(result, 'json', options)).toEqual({ text: result.text, usage: { type: 'duration', seconds: 11 } });
  });

  it('text ends with a newline, like the official API', () => {
    expect(openAiTranscript(result, 'text', options)).toBe(`${result.text}\n`);
  });

  it('srt and vtt: one cue per segment', () => {
    expect(openAiTranscript(result, 'srt', options)).toBe(
      '1\n00:00:00,320 --> 00:00:03,500\nAnd so my fellow Americans, ask not.\n\n2\n00:00:04,100 --> 00:00:10,980\nWhat your country can do for you.\n\n',
    );
    expect(openAiTranscript(result, 'vtt', options)).toBe(
      'WEBVTT\n\n00:00:00.320 --> 00:00:03.500\nAnd so my fellow Americans, ask not.\n\n00:00:04.100 --> 00:00:10.980\nWhat your country can do for you.\n\n',
    );
  });

  it('verbose_json: language by name, Whisper segment fields, segments by default', () => {
    const body = openAiTranscript(result, 'verbose_json', options) as Record<string, unknown>;
    expect(body).toMatchObject({ task: 'transcribe', language: 'english', duration: 11, text: result.text, usage: { type: 'duration', seconds: 11 } });
    expect(body.words).toEqual([]); // always there (issue 32, point 1), empty unless words were asked for
    expect((body.segments as unknown[])[1]).toEqual({
      id: 1,
      seek: 410,
      start: 4.1,
      end: 10.98,
      text: ' What your country can do for you.',
      tokens: [],
      temperature: 0,
      avg_logprob: 0,
      compression_ratio: 1,
      no_speech_prob: 0,
    });
  });

  it('verbose_json measures what it can: mean log confidence of the scored words, no speech from the flag, the compression ratio given', () => {
    const scored: JobResult = {
      ...result,
      segments: [result.segments![0]!, { ...result.segments![1]!, flags: ['no_speech'] }],
      words: [
        { word: 'And', start: 0.32, end: 0.5, confidence: 0.5 },
        { word: 'so', start: 0.5, end: 0.7, confidence: 1 },
        { word: 'What', start: 4.1, end: 4.4 },
      ],
    };
    const body = openAiTranscript(scored, 'verbose_json', { ...options, compressionRatio: (text) => text.length / 10 }) as { segments: Record<string, number>[] };
    expect(body.segments[0]).toMatchObject({ avg_logprob: Math.log(0.5) / 2, no_speech_prob: 0, compression_ratio: 3.6 });
    // A segment none of whose words is scored is not "unsure": 0, as before.
    expect(body.segments[1]).toMatchObject({ avg_logprob: 0, no_speech_prob: 1, compression_ratio: 3.3 });
    // A word scored 0 does not make the mean -Infinity.
    expect(averageLogProbability({ start: 0, end: 1 }, [{ word: 'x', start: 0, end: 1, confidence: 0 }])).toBeCloseTo(Math.log(1e-6));
  });

  it('verbose_json with word only: words and empty segments; with both: both; translate says so', () => {
    const words = openAiTranscript(result, 'verbose_json', { ...options, granularities: ['word'] }) as Record<string, unknown>;
    expect(words.words).toEqual([
      { word: 'And', start: 0.32, end: 0.5 },
      { word: 'so', start: 0.5, end: 0.7 },
    ]);
    expect(words.segments).toEqual([]);
    const both = openAiTranscript(result, 'verbose_json', { ...options, task: 'translate', granularities: ['word', 'segment'] }) as Record<string, unknown>;
    expect(both).toMatchObject({ task: 'translate' });
    expect(both.segments).toHaveLength(2);
    expect(both.words).toHaveLength(2);
  });

  it('diarized_json: speakers lettered in order of appearance', () => {
    const body = openAiTranscript(result, 'diarized_json', options) as { segments: { speaker: string; type: string; id: string }[] };
    expect(body.segments.map((s) => [s.id, s.type, s.speaker])).toEqual([
      ['seg_0', 'transcript.text.segment', 'A'],
      ['seg_1', 'transcript.text.segment', 'B'],
    ]);
  });

  it('a result without segments still gives one cue and one delta; an empty one gives none', () => {
    const plain: JobResult = { text: 'hello there', duration: 2 };
    expect(openAiTranscript(plain, 'srt', options)).toBe('1\n00:00:00,000 --> 00:00:02,000\nhello there\n\n');
    expect(transcriptDeltas(plain)).toEqual(['hello there']);
    expect(transcriptDeltas({ text: '' })).toEqual([]);
    expect(transcriptDeltas(result)).toEqual(['And so my fellow Americans, ask not.', ' What your country can do for you.']);
  });

  it('language names: codes and regional codes, unknown codes kept', () => {
    expect(languageName('de')).toBe('german');
    expect(languageName('pt-BR')).toBe('portuguese');
    expect(languageName('xx')).toBe('xx');
    expect(languageName(null)).toBe('unknown');
  });
});
