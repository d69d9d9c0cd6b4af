/** Which names a watch folder takes: recordings only, never hidden files, locks, partial downloads or exports. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInIgnoredFolder, isWatchableFile } from '../../../src-main/watch/watchable-files.js';

describe('watchable files', () => {
  it('takes audio and video recordings in any case', () => {
    for (const name of ['a.wav', 'B.MP3', 'c.m4a', 'd.flac', 'e.ogg', 'f.opus', 'g.webm', 'h.mp4', 'i.MOV', 'j.mkv', 'k.aac', 'l.amr', 'REC 001.WAV']) {
      expect(isWatchableFile(join('/rec', name)), name).toBe(true);
    }
  });

  it('ignores exports, other files, hidden files, locks and partial downloads', () => {
    for (const name of ['a.srt', 'a.txt', 'a.vtt', 'a.json', 'a.docx', 'notes', 'a.wav.txt', '.a.wav', '~$a.wav', 'a.wav.part', 'a.mp3.crdownload', 'a.wav~', 'a.m4a.download', 'a.wav.tmp', '.talk.srt.0a1b.voxdesk-tmp']) {
      expect(isWatchableFile(join('/rec', name)), name).toBe(false);
    }
  });

  it('ignores hidden and partial folders below the root, not the root itself', () => {
    expect(isInIgnoredFolder('/home/me/.recorder', '/home/me/.recorder/a.wav')).toBe(false);
    expect(isInIgnoredFolder('/rec', '/rec/2026/a.wav')).toBe(false);
    expect(isInIgnoredFolder('/rec', '/rec/.Trash/a.wav')).toBe(true);
    expect(isInIgnoredFolder('/rec', '/rec/x/.sync/a.wav')).toBe(true);
  });
});
