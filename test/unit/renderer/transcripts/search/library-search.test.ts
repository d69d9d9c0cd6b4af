/** The library search (src-renderer/src/transcripts/search/library-search.svelte.ts) against a real service. */
import { describe, expect, it } from 'vitest';
import { LibrarySearch, snippetParts } from '../../../../../src-renderer/src/transcripts/search/library-search.svelte.js';
import { TranscriptEditor } from '../../../../../src-renderer/src/transcripts/transcript-editor.svelte.js';
import { until, useConnectedApp } from '../../../../helpers/renderer-host.js';
import { transcribeSegments } from '../transcribe-segments.js';

const ctx = useConnectedApp({ workers: 1 });
const transcribe = (name: string, count = 3): Promise<string> => transcribeSegments(ctx.app, name, count);

describe('LibrarySearch', () => {
  it('finds a word saved in one transcript, with its moment and marks; clears; never fails on hostile input', async () => {
    const id = await transcribe('searchable.wav');
    const editor = new TranscriptEditor(ctx.app, id);
    await editor.load();
    editor.begin(1);
    editor.draft = 'the quarterly budget review';
    await editor.commit();

    const search = new LibrarySearch(ctx.app, 0);
    search.input('budget');
    await until(() => search.searched === 'budget' && !search.loading, 'the search');
    expect(search.error).toBeNull();
    expect(search.results).toHaveLength(1);
    expect(search.results[0]).toMatchObject({ job_id: id, name: 'searchable.wav', segment_index: 1, start: 10 });
    expect(snippetParts(search.results[0]!.snippet).filter((p) => p.hit).map((p) => p.text.toLowerCase())).toEqual(['budget']);
    expect(search.active).toBe(0);
    expect(search.current?.job_id).toBe(id);

    for (const hostile of ['NEAR(', '"unbalanced', '*', 'AND OR NOT', 'text:budget', '😀 budget', '"budget review"', 'budg*']) {
      search.input(hostile);
      await search.run();
      expect(search.error, hostile).toBeNull();
    }
    expect(search.results.map((r) => r.job_id)).toEqual([id]); // budg* found it
    // Over the service's limits: said in plain words, no request sent.
    search.input('x'.repeat(10_000));
    await search.run();
    expect(search.error).toBe('Search for at most 1,000 characters at a time.');
    search.input(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '));
    await search.run();
    expect(search.error).toBe('Search for at most 32 words at a time.');

    search.input('');
    expect(search.results).toEqual([]);
    expect(search.searched).toBe('');
    expect(search.active).toBe(-1);
  });

  it('pages through many results with the cursor and moves the active result around the ends', async () => {
    const ids = [await transcribe('many-a.wav', 12), await transcribe('many-b.wav', 12)];
    const search = new LibrarySearch(ctx.app, 0);
    search.input('segment');
    await search.run();
    expect(search.results.length).toBe(20);
    expect(search.nextCursor).not.toBeNull();
    while (search.nextCursor) await search.more();
    const ours = search.results.filter((r) => ids.includes(r.job_id));
    expect(ours).toHaveLength(24);
    expect(new Set(search.results.map((r) => `${r.job_id}:${r.segment_index}`)).size).toBe(search.results.length);
    search.move(-1);
    expect(search.active).toBe(search.results.length - 1);
    search.move(1);
    expect(search.active).toBe(0);
  });
});
