/** Names of jobs that came without one (jobs/job-name.ts): the file for recordings, the start of the text for speech. */
import { describe, expect, it } from 'vitest';
import { defaultJobName, nameFromText, TEXT_NAME_CHARS } from '../../../../src-main/jobs/engine/job-name.js';

describe('defaultJobName', () => {
  it('names a recording after its file, without the folders a client may have sent', () => {
    expect(defaultJobName('speech-to-text', { filePath: '/d/up/1', fileName: 'interview.wav' })).toBe('interview.wav');
    expect(defaultJobName('voice-isolator', { filePath: '/d/up/1', fileName: 'C:\\fakepath\\noisy take.m4a' })).toBe('noisy take.m4a');
    expect(defaultJobName('speech-to-text', { filePath: '/d/up/1', fileName: 'talks/2024/keynote.mp3' })).toBe('keynote.mp3');
  });

  it('names speech after the start of its text, also with a reference voice', () => {
    expect(defaultJobName('text-to-speech', { text: 'Hello there.' })).toBe('Hello there.');
    expect(defaultJobName('voice-cloning', { referencePath: '/r', fileName: 'me.wav', text: 'Say this' })).toBe('Say this');
    expect(defaultJobName('voice-design', { text: 'Good evening', description: 'a calm voice' })).toBe('Good evening');
  });

  it('falls back to the other one, else null', () => {
    expect(defaultJobName('speech-to-text', { filePath: '/d/up/1' })).toBeNull();
    expect(defaultJobName('speech-to-text', { filePath: '/d/up/1', fileName: '' })).toBeNull();
    expect(defaultJobName('text-to-speech', { text: '   ' })).toBeNull();
    expect(defaultJobName('voice-continuation', { referencePath: '/r', fileName: 'start.wav' })).toBe('start.wav');
  });
});

describe('nameFromText', () => {
  it('puts the text on one line and keeps a short one whole', () => {
    expect(nameFromText('  Dear   friends,\n\nwelcome.  ')).toBe('Dear friends, welcome.');
  });

  it('cuts a long text at a word boundary, without trailing punctuation, with an ellipsis, within the limit', () => {
    const name = nameFromText('Welcome to the quarterly meeting of the society of people who write very long sentences.')!;
    expect(name).toBe('Welcome to the quarterly meeting of the society of people…');
    expect(name.length).toBeLessThanOrEqual(TEXT_NAME_CHARS);
    expect(nameFromText('Alpha beta, gamma delta epsilon zeta eta theta iota kappa, lambda mu nu xi omicron')).toBe('Alpha beta, gamma delta epsilon zeta eta theta iota kappa…');
  });

  it('cuts one very long word where the room ends', () => {
    const name = nameFromText('x'.repeat(200))!;
    expect(name).toBe(`${'x'.repeat(TEXT_NAME_CHARS - 1)}…`);
  });
});
