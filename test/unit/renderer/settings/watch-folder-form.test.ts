/**
 * The Settings tab's watch-folder form logic: plain-words checks before sending, the PUT body, the counts line, the
 * problem line.
 */
import { describe, expect, it } from 'vitest';
import type { WatchFolder, WatchFolderStatus } from '../../../../src-main/common/watch-folder-types.js';
import { describeCounts, describeProblem, folderFromDraft, inputsOf, looksAbsolute } from '../../../../src-renderer/src/settings/watch-folder-form.js';

const draft = { path: ' /home/me/Rec ', model: 'pocketsphinx-en-us', outputDir: '', formats: ['srt'] };
const status: WatchFolderStatus = {
  state: 'watching', error: null, next_retry_at: null, last_scan_at: null,
  files_waiting: 0, files_queued: 0, files_done: 0, files_failed: 0, files_skipped: 0, last_failure: null,
};

describe('watch folder form', () => {
  it('knows absolute paths of Linux, macOS and Windows', () => {
    for (const path of ['/a', 'C:\\Rec', 'd:/rec', '\\\\server\\share']) expect(looksAbsolute(path), path).toBe(true);
    for (const path of ['rec', './rec', '~/rec', 'C:rec', '']) expect(looksAbsolute(path), path).toBe(false);
  });

  it('turns a draft into the folder the PUT takes, or explains what is missing', () => {
    expect(folderFromDraft(draft)).toEqual({ folder: { path: '/home/me/Rec', model: 'pocketsphinx-en-us', formats: ['srt'] } });
    expect(folderFromDraft({ ...draft, outputDir: '/out' })).toEqual({ folder: { path: '/home/me/Rec', model: 'pocketsphinx-en-us', formats: ['srt'], output_dir: '/out' } });
    expect(folderFromDraft({ ...draft, path: ' ' })).toEqual({ error: 'Choose the folder to watch.' });
    expect(folderFromDraft({ ...draft, path: 'Rec' })).toMatchObject({ error: expect.stringMatching(/full path/) });
    expect(folderFromDraft({ ...draft, outputDir: 'out' })).toMatchObject({ error: expect.stringMatching(/output folder must be a full path/) });
    expect(folderFromDraft({ ...draft, model: '' })).toMatchObject({ error: expect.stringMatching(/Models tab/) });
    expect(folderFromDraft({ ...draft, formats: [] })).toMatchObject({ error: expect.stringMatching(/at least one format/) });
  });

  it('re-sends the saved folders without their status', () => {
    const saved: WatchFolder = { path: '/a', model: 'm', params: { x: 1 }, output_dir: null, formats: ['txt'], status };
    expect(inputsOf([saved])).toEqual([{ path: '/a', model: 'm', params: { x: 1 }, output_dir: null, formats: ['txt'] }]);
  });

  it('says what happened to the files in one line', () => {
    expect(describeCounts(status)).toBe('No recordings yet');
    expect(describeCounts({ ...status, files_done: 3, files_queued: 1, files_failed: 1, files_skipped: 2, files_waiting: 1 })).toBe(
      '3 done · 1 in the queue · 1 waiting to finish copying · 1 failed · 2 skipped as copies',
    );
  });

  it('says what is wrong with a folder and when it is tried again, with a space between the two', () => {
    expect(describeProblem(status)).toBeNull();
    const missing = { ...status, state: 'error' as const, error: { code: 'folder_missing', message: 'gone' } };
    expect(describeProblem(missing)).toMatch(/^The folder does not exist: it was deleted or renamed\b.*\.$/);
    expect(describeProblem({ ...missing, next_retry_at: '2030-01-01T12:34:00Z' })).toMatch(/plugged in\. Trying again at \S+/);
  });
});
