/** The transcript workbench's pure parts: turns, the word being played, search, speaker names, previews, snippets, exports, following playback. */
import { describe, expect, it } from 'vitest';
import { outOfView, PlaybackFollower } from '../../../../src-renderer/src/transcripts/follow-playback.js';
import { snippetParts } from '../../../../src-renderer/src/transcripts/search/library-search.svelte.js';
import { exportQuery } from '../../../../src-renderer/src/transcripts/transcript-api.js';
import { speakerIds, speakerLabel, transcriptStart } from '../../../../src-renderer/src/transcripts/transcript-editor.svelte.js';
import { matchingSegments, playingWord, timedWords, turnsOf, wordAt } from '../../../../src-renderer/src/transcripts/transcript-turns.js';

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
    expect(exportQuery('txt', null, true)).toBe('format=txt&remove_fillers=true');
    expect(exportQuery('srt', { max_chars_per_line: null, max_lines: 1 }, true)).toBe('format=srt&remove_fillers=true&max_lines=1');
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
