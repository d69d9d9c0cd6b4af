/**
 * The transcript workbench's rune modules against a real service over loopback (real SQLite, the test engine's
 * checkpointing transcription), with the page's own AppState as host: TranscriptEditor (edit, undo, a save that meets
 * a newer revision, naming, renaming and merging speakers, setting one segment's speaker) and LibrarySearch (results
 * with their marks, hostile input, clearing, paging).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppState } from '../../../src-renderer/src/lib/app-state.svelte.js';
import { LibrarySearch, snippetParts } from '../../../src-renderer/src/lib/library-search.svelte.js';
import { CONFLICT_NOTE, CONFLICT_REDO_NOTE, speakerIds, speakerLabel, TranscriptEditor } from '../../../src-renderer/src/lib/transcript-editor.svelte.js';
import { patchTranscript } from '../../../src-renderer/src/lib/transcript-api.js';
import { connectedAppState, until } from '../../helpers/renderer-host.js';
import { startTestService, type TestService } from '../../helpers/service.js';

let svc: TestService;
let app: AppState;
const toasts: string[] = [];

beforeAll(async () => {
  svc = await startTestService({ workers: 1 });
  app = connectedAppState(svc);
  const toast = app.toast.bind(app);
  app.toast = (text, kind) => {
    toasts.push(text);
    toast(text, kind);
  };
});
afterAll(async () => {
  app?.stopPolling();
  await svc?.stop();
});

/** A finished transcription of `count` segments ("segment 0" …), named `name`. */
async function transcribe(name: string, count = 3): Promise<string> {
  const job = await app.api.transcribe(
    { file: new File([new Uint8Array(2000).fill(7)], name, { type: 'audio/wav' }), filename: name },
    { model: 'test-asr', params: { behaviour: 'segments', count, ms: 0 } },
  );
  await until(() => app.jobById(job.id)?.status === 'succeeded', `${name} to finish`);
  return job.id;
}

const texts = (editor: TranscriptEditor): string[] => editor.transcript!.segments.map((s) => s.text);

describe('TranscriptEditor', () => {
  it('edits a segment in place, undoes the save, and cancels without saving', async () => {
    const id = await transcribe('edit.wav');
    const editor = new TranscriptEditor(app, id, (t) => app.previews.note(t));
    await editor.load();
    expect(editor.transcript).toMatchObject({ job_id: id, revision: 0 });
    expect(texts(editor)).toEqual(['segment 0', 'segment 1', 'segment 2']);
    expect(editor.canUndo).toBe(false);

    editor.begin(1);
    expect(editor.draft).toBe('segment 1');
    editor.draft = '  segment   one,\n fixed ';
    expect(await editor.commit()).toBe(true);
    expect(editor.editing).toBeNull();
    expect(editor.transcript!.revision).toBe(1);
    expect(texts(editor)).toEqual(['segment 0', 'segment one, fixed', 'segment 2']);
    expect(app.previews.startOf(app.jobById(id)!)).toBe('segment 0 segment one, fixed segment 2');
    expect(editor.canUndo).toBe(true);

    // Unchanged text just closes the editor; Esc (cancel) saves nothing.
    editor.begin(0);
    expect(await editor.commit()).toBe(true);
    editor.begin(2);
    editor.draft = 'not kept';
    editor.cancel();
    expect(editor.transcript!.revision).toBe(1);

    // Emptying a segment removes its words (a filler, a false start); undo brings them back.
    editor.begin(2);
    editor.draft = '   ';
    expect(await editor.commit()).toBe(true);
    expect(texts(editor)).toEqual(['segment 0', 'segment one, fixed', '']);
    expect(editor.transcript!.segments[2]!.words).toEqual([]);

    expect(await editor.undo()).toBe(true);
    expect(await editor.undo()).toBe(true);
    expect(editor.transcript!.revision).toBe(4);
    expect(texts(editor)).toEqual(['segment 0', 'segment 1', 'segment 2']);
    expect(editor.canUndo).toBe(false);
    expect(await editor.undo()).toBe(false);
    expect(toasts).toEqual([]);
  });

  it('keeps the person’s draft when the transcript was edited elsewhere, then saves it on the newer revision', async () => {
    const id = await transcribe('conflict.wav');
    const editor = new TranscriptEditor(app, id);
    await editor.load();
    editor.begin(0);
    editor.draft = 'my own words';
    // Another window saves first.
    await patchTranscript(app.api, id, { base_revision: 0, segments: [{ index: 2, text: 'theirs' }] });
    expect(await editor.commit()).toBe(false);
    expect(editor.conflict).toBe(CONFLICT_NOTE);
    expect(editor.editing).toBe(0);
    expect(editor.draft).toBe('my own words');
    expect(editor.transcript!.revision).toBe(1);
    expect(texts(editor)[2]).toBe('theirs');
    expect(editor.canUndo).toBe(false);

    expect(await editor.commit()).toBe(true);
    expect(editor.conflict).toBeNull();
    expect(editor.transcript!.revision).toBe(2);
    expect(texts(editor)).toEqual(['my own words', 'segment 1', 'theirs']);

    // A speaker change that meets a newer revision is not applied on top blindly: reloaded, to be redone.
    await patchTranscript(app.api, id, { base_revision: 2, speakers: { SPEAKER_0: 'Them' }, segments: [{ index: 0, speaker: 'SPEAKER_0' }] });
    expect(await editor.renameSpeaker('SPEAKER_0', 'Me')).toBe(false);
    expect(editor.conflict).toBe(CONFLICT_REDO_NOTE);
    expect(speakerLabel(editor.transcript, 'SPEAKER_0')).toBe('Them');
    expect(await editor.renameSpeaker('SPEAKER_0', 'Me')).toBe(true);
    expect(speakerLabel(editor.transcript, 'SPEAKER_0')).toBe('Me');
    expect(editor.undoLabel).toBe('rename');
  });

  it('names the only speaker, renames it everywhere, merges two speakers and moves one segment, each undoable', async () => {
    const id = await transcribe('speakers.wav');
    const editor = new TranscriptEditor(app, id);
    await editor.load();
    expect(speakerIds(editor.transcript)).toEqual([]);

    expect(await editor.nameOnlySpeaker('  Alice ')).toBe(true);
    const [alice] = speakerIds(editor.transcript);
    expect(editor.transcript!.segments.every((s) => s.speaker === alice)).toBe(true);
    expect(speakerLabel(editor.transcript, alice!)).toBe('Alice');
    expect(await editor.undo()).toBe(true);
    expect(speakerIds(editor.transcript)).toEqual([]);
    expect(await editor.nameOnlySpeaker('Alice')).toBe(true);

    expect(await editor.renameSpeaker(alice!, 'Alice Smith')).toBe(true);
    expect(speakerLabel(editor.transcript, alice!)).toBe('Alice Smith');
    expect(await editor.undo()).toBe(true);
    expect(speakerLabel(editor.transcript, alice!)).toBe('Alice');

    // A second speaker (as another window would add it), then one segment moved to it from the editor.
    const t = editor.transcript!;
    await patchTranscript(app.api, id, { base_revision: t.revision, speakers: { SPEAKER_1: 'Bob' }, segments: [{ index: 2, speaker: 'SPEAKER_1' }] });
    await editor.load();
    expect(speakerIds(editor.transcript)).toEqual([alice, 'SPEAKER_1']);
    expect(await editor.setSpeaker(1, 'SPEAKER_1')).toBe(true);
    expect(editor.transcript!.segments.map((s) => s.speaker)).toEqual([alice, 'SPEAKER_1', 'SPEAKER_1']);
    expect(await editor.undo()).toBe(true);
    expect(editor.transcript!.segments.map((s) => s.speaker)).toEqual([alice, alice, 'SPEAKER_1']);

    expect(await editor.mergeSpeakers('SPEAKER_1', alice!)).toBe(true);
    expect(speakerIds(editor.transcript)).toEqual([alice]);
    expect(editor.transcript!.speakers).not.toHaveProperty('SPEAKER_1');
    expect(await editor.undo()).toBe(true);
    expect(editor.transcript!.segments.map((s) => s.speaker)).toEqual([alice, alice, 'SPEAKER_1']);
    expect(speakerLabel(editor.transcript, 'SPEAKER_1')).toBe('Bob');
  });

  it('says why a transcript cannot be loaded', async () => {
    const editor = new TranscriptEditor(app, 'job_does_not_exist');
    await editor.load();
    expect(editor.transcript).toBeNull();
    expect(editor.loadError).toMatch(/no longer exists/);
  });
});

describe('TranscriptPreviews (the Jobs list)', () => {
  it('shows the latest revision of a transcript edited elsewhere, read once per revision', async () => {
    const id = await transcribe('elsewhere.wav');
    const job = (): NonNullable<ReturnType<typeof app.jobById>> => app.jobById(id)!;
    expect(job().transcript_revision).toBe(0);
    expect(app.previews.startOf(job())).toBe('segment 0 segment 1 segment 2');

    // Another window (or a script) edits it: the next poll brings transcript_revision 1, and the list reads it.
    await patchTranscript(app.api, id, { base_revision: 0, segments: [{ index: 0, text: 'the quarterly review' }] });
    app.refreshSoon();
    await until(() => job().transcript_revision === 1, 'the poll to bring revision 1');
    let reads = 0;
    const request = app.api.request.bind(app.api);
    app.api.request = ((...args: Parameters<typeof request>) => {
      if (String(args[1]).endsWith(`/${id}/transcript`)) reads++;
      return request(...args);
    }) as typeof request;
    try {
      app.previews.refresh(app.jobs);
      app.previews.refresh(app.jobs); // asked for while the first read runs: not read twice
      await until(() => app.previews.startOf(job()) === 'the quarterly review segment 1 segment 2', 'the preview to follow the edit');
      app.previews.refresh(app.jobs); // known now
      expect(reads).toBe(1);
    } finally {
      app.api.request = request;
    }

    // An older revision noted late (a slow editor) never replaces the newer one.
    app.previews.note({ job_id: id, revision: 0, segments: [{ text: 'segment 0' }] });
    expect(app.previews.startOf(job())).toBe('the quarterly review segment 1 segment 2');
    // Jobs that are not succeeded transcriptions have no preview.
    expect(app.previews.startOf({ ...job(), status: 'running' })).toBe('');
  });
});

describe('LibrarySearch', () => {
  it('finds a word saved in one transcript, with its moment and marks; clears; never fails on hostile input', async () => {
    const id = await transcribe('searchable.wav');
    const editor = new TranscriptEditor(app, id);
    await editor.load();
    editor.begin(1);
    editor.draft = 'the quarterly budget review';
    await editor.commit();

    const search = new LibrarySearch(app, 0);
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
    expect(search.error).toBe('Search for at most 1000 characters at a time.');
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
    const search = new LibrarySearch(app, 0);
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
