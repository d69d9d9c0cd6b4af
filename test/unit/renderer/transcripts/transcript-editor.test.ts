/**
 * The transcript workbench's rune modules against a real service over loopback (real SQLite, the test engine's
 * checkpointing transcription), with the page's own AppState as host: TranscriptEditor (edit, undo, a save that meets
 * a newer revision, naming, renaming and merging speakers, setting one segment's speaker) and TranscriptPreviews (the
 * Jobs list follows edits made elsewhere).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { speakerIds, speakerLabel, TranscriptEditor } from '../../../../src-renderer/src/transcripts/transcript-editor.svelte.js';
import { patchTranscript } from '../../../../src-renderer/src/transcripts/transcript-api.js';
import { TranscriptPreviews } from '../../../../src-renderer/src/transcripts/transcript-previews.svelte.js';
import { until, useConnectedApp } from '../../../helpers/renderer-host.js';
import { transcribeSegments } from './transcribe-segments.js';

const ctx = useConnectedApp({ workers: 1 });
const toasts: string[] = [];
/** The Jobs list's previews, as the page shares them between its transcripts and its list. */
const previews = new TranscriptPreviews(() => ctx.app.api);

beforeAll(() => {
  const toast = ctx.app.toast.bind(ctx.app);
  ctx.app.toast = (text, kind) => {
    toasts.push(text);
    toast(text, kind);
  };
});

const transcribe = (name: string, count = 3): Promise<string> => transcribeSegments(ctx.app, name, count);

const texts = (editor: TranscriptEditor): string[] => editor.transcript!.segments.map((s) => s.text);

describe('TranscriptEditor', () => {
  it('edits a segment in place, undoes the save, and cancels without saving', async () => {
    const id = await transcribe('edit.wav');
    const editor = new TranscriptEditor(ctx.app, id, (t) => previews.note(t));
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
    expect(previews.startOf(ctx.app.jobById(id)!)).toBe('segment 0 segment one, fixed segment 2');
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
    const editor = new TranscriptEditor(ctx.app, id);
    await editor.load();
    editor.begin(0);
    editor.draft = 'my own words';
    // Another window saves first.
    await patchTranscript(ctx.app.api, id, { base_revision: 0, segments: [{ index: 2, text: 'theirs' }] });
    expect(await editor.commit()).toBe(false);
    expect(editor.conflict).toBe('keep_draft');
    expect(editor.conflictNote).toMatch(/edited elsewhere.*your text is kept/);
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
    await patchTranscript(ctx.app.api, id, { base_revision: 2, speakers: { SPEAKER_0: 'Them' }, segments: [{ index: 0, speaker: 'SPEAKER_0' }] });
    expect(await editor.renameSpeaker('SPEAKER_0', 'Me')).toBe(false);
    expect(editor.conflict).toBe('redo');
    expect(editor.conflictNote).toMatch(/edited elsewhere.*make yours again/);
    expect(speakerLabel(editor.transcript, 'SPEAKER_0')).toBe('Them');
    expect(await editor.renameSpeaker('SPEAKER_0', 'Me')).toBe(true);
    expect(speakerLabel(editor.transcript, 'SPEAKER_0')).toBe('Me');
    expect(editor.undoLabel).toBe('rename');
  });

  it('names the speaker of the selected sentences only; "Not …" takes a name back off, undoable', async () => {
    const id = await transcribe('one-speaker.wav', 4);
    const editor = new TranscriptEditor(ctx.app, id);
    await editor.load();
    expect(await editor.nameOnlySpeaker('Dana', new Set([1, 2]))).toBe(true);
    expect(editor.transcript!.segments.map((s) => s.speaker)).toEqual([null, 'SPEAKER_0', 'SPEAKER_0', null]);
    expect(speakerLabel(editor.transcript, 'SPEAKER_0')).toBe('Dana');
    // "Not Dana": the speaker is "Speaker 1" again (nothing left to take off after that), and Ctrl+Z names it back.
    expect(await editor.notSpeaker('SPEAKER_0')).toBe(true);
    expect(speakerLabel(editor.transcript, 'SPEAKER_0')).toBe('Speaker 1');
    expect(await editor.notSpeaker('SPEAKER_0')).toBe(false);
    expect(await editor.undo()).toBe(true);
    expect(speakerLabel(editor.transcript, 'SPEAKER_0')).toBe('Dana');
  });

  it('names the only speaker, renames it everywhere, merges two speakers and moves one segment, each undoable', async () => {
    const id = await transcribe('speakers.wav');
    const editor = new TranscriptEditor(ctx.app, id);
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
    await patchTranscript(ctx.app.api, id, { base_revision: t.revision, speakers: { SPEAKER_1: 'Bob' }, segments: [{ index: 2, speaker: 'SPEAKER_1' }] });
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
    const editor = new TranscriptEditor(ctx.app, 'job_does_not_exist');
    await editor.load();
    expect(editor.transcript).toBeNull();
    expect(editor.loadError).toMatch(/no longer exists/);
  });
});

describe('TranscriptPreviews (the Jobs list)', () => {
  it('shows the latest revision of a transcript edited elsewhere, read once per revision', async () => {
    const id = await transcribe('elsewhere.wav');
    const job = (): NonNullable<ReturnType<typeof ctx.app.jobById>> => ctx.app.jobById(id)!;
    expect(job().transcript_revision).toBe(0);
    expect(previews.startOf(job())).toBe('segment 0 segment 1 segment 2');

    // Another window (or a script) edits it: the next poll brings transcript_revision 1, and the list reads it.
    await patchTranscript(ctx.app.api, id, { base_revision: 0, segments: [{ index: 0, text: 'the quarterly review' }] });
    ctx.app.refreshSoon();
    await until(() => job().transcript_revision === 1, 'the poll to bring revision 1');
    let reads = 0;
    const request = ctx.app.api.request.bind(ctx.app.api);
    ctx.app.api.request = ((...args: Parameters<typeof request>) => {
      if (String(args[1]).endsWith(`/${id}/transcript`)) reads++;
      return request(...args);
    }) as typeof request;
    try {
      previews.refresh(ctx.app.jobs);
      previews.refresh(ctx.app.jobs); // asked for while the first read runs: not read twice
      await until(() => previews.startOf(job()) === 'the quarterly review segment 1 segment 2', 'the preview to follow the edit');
      previews.refresh(ctx.app.jobs); // known now
      expect(reads).toBe(1);
    } finally {
      ctx.app.api.request = request;
    }

    // An older revision noted late (a slow editor) never replaces the newer one.
    previews.note({ job_id: id, revision: 0, segments: [{ text: 'segment 0' }] });
    expect(previews.startOf(job())).toBe('the quarterly review segment 1 segment 2');
    // Jobs that are not succeeded transcriptions have no preview.
    expect(previews.startOf({ ...job(), status: 'running' })).toBe('');
  });
});
