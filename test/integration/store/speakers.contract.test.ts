/**
 * The speaker library on both backends (migration 028, jobs/transcripts/speaker-library.ts): naming a recording's
 * speaker keeps its voice under that name, naming it again moves the voice, "not X" keeps it as one X must not match,
 * profiles are renamed, merged and deleted per account, and a recording's voices go with its job.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { deleteProfile, keepRecordingVoices, knownSpeakers, mergeProfiles, nameSpeaker, notSpeaker, renameProfile } from '../../../src-main/jobs/transcripts/speaker-library.js';
import { MAX_SPEAKER_PROFILE_SAMPLES } from '../../../src-main/common/limits.js';
import { BACKENDS, jobId, jobRow, useStore } from './store-fixture.js';

const AT = '2026-05-01T12:00:00.000Z';
const LATER = '2026-05-02T12:00:00.000Z';
const voice = (speaker: string, x: number): { speaker: string; embedding: number[]; seconds: number } => ({ speaker, embedding: [x, 1 - x, 0.5], seconds: 12.5 });

describe.each(BACKENDS)('speaker library on %s', (backend) => {
  const fx = useStore(backend);
  const accounts = new Map<string, string>();
  beforeEach(() => accounts.clear());

  async function recording(account: string, n: number): Promise<string> {
    const id = jobId(n);
    // Accounts are made as they are first used; the library is keyed by account id either way.
    if (!accounts.has(account)) accounts.set(account, (await fx.store.repos.accounts.createAccount(account)).id);
    await fx.store.repos.jobs.insert(jobRow(accounts.get(account)!, id, { status: 'succeeded' }));
    await fx.store.tx(({ repos }) => keepRecordingVoices(repos, id, [voice('SPEAKER_0', 1), voice('SPEAKER_1', 0)]));
    return id;
  }

  it('naming keeps the voice under the name, once per recording speaker; naming again moves it; a key name takes it out', async () => {
    const job = await recording('acct_a', 1);
    const { repos } = fx.store;
    expect(await repos.speakers.voiceOf(job, 'SPEAKER_0')).toEqual({ job_id: job, speaker: 'SPEAKER_0', seconds: 12.5, embedding_json: '[1,0,0.5]' });
    await fx.store.tx(({ repos: r }) => nameSpeaker(r, 'acct_a', job, 'SPEAKER_0', 'Anna', AT));
    await fx.store.tx(({ repos: r }) => nameSpeaker(r, 'acct_a', job, 'SPEAKER_0', 'Anna', AT));
    let list = await repos.speakers.list('acct_a');
    expect(list.map((p) => [p.name, Number(p.samples), Number(p.not_samples)])).toEqual([['Anna', 1, 0]]);
    expect(await knownSpeakers(repos, 'acct_a')).toEqual([{ id: list[0]!.id, name: 'Anna', centre: [1, 0, 0.5 / Math.sqrt(1.25)].map((x, i) => (i === 0 ? 1 / Math.sqrt(1.25) : x)), not: [] }]);
    // Named Anne instead: the voice moves, and Anna (left without samples) goes.
    await fx.store.tx(({ repos: r }) => nameSpeaker(r, 'acct_a', job, 'SPEAKER_0', 'Anne', LATER));
    list = await repos.speakers.list('acct_a');
    expect(list.map((p) => [p.name, Number(p.samples)])).toEqual([['Anne', 1]]);
    // Undone (the key as its name): out of the library.
    await fx.store.tx(({ repos: r }) => nameSpeaker(r, 'acct_a', job, 'SPEAKER_0', 'SPEAKER_0', LATER));
    expect(await repos.speakers.list('acct_a')).toEqual([]);
    // Another account sees nothing of it; a speaker without a kept voice stores nothing.
    await fx.store.tx(({ repos: r }) => nameSpeaker(r, 'acct_a', job, 'SPEAKER_7', 'Nobody', LATER));
    expect(await repos.speakers.list('acct_a')).toEqual([]);
  });

  it('"not X" moves the voice to X\'s not samples; a profile keeps its newest samples only', async () => {
    const { repos } = fx.store;
    const first = await recording('acct_a', 1);
    const second = await recording('acct_a', 2);
    await fx.store.tx(async ({ repos: r }) => {
      await nameSpeaker(r, 'acct_a', first, 'SPEAKER_0', 'Anna', AT);
      await nameSpeaker(r, 'acct_a', second, 'SPEAKER_1', 'Anna', AT);
    });
    await fx.store.tx(({ repos: r }) => notSpeaker(r, 'acct_a', second, 'SPEAKER_1', 'Anna', LATER));
    const [anna] = await repos.speakers.list('acct_a');
    expect([Number(anna!.samples), Number(anna!.not_samples), anna!.updated_at]).toEqual([1, 1, LATER]);
    const [known] = await knownSpeakers(repos, 'acct_a');
    expect(known!.not).toEqual([[0, 1, 0.5]]);
    // Named Anna after all (an undone "not Anna"): the "not" voice goes again.
    await fx.store.tx(({ repos: r }) => nameSpeaker(r, 'acct_a', second, 'SPEAKER_1', 'Anna', LATER));
    expect(Number((await repos.speakers.get('acct_a', anna!.id))!.not_samples)).toBe(0);
    await fx.store.tx(({ repos: r }) => notSpeaker(r, 'acct_a', second, 'SPEAKER_1', 'Anna', LATER));
    // Named in many recordings: the newest voices are kept, and the centre is theirs.
    for (let n = 3; n < MAX_SPEAKER_PROFILE_SAMPLES + 6; n++) {
      const job = await recording('acct_a', n);
      await fx.store.tx(({ repos: r }) => nameSpeaker(r, 'acct_a', job, 'SPEAKER_1', 'Anna', LATER));
    }
    expect(Number((await repos.speakers.get('acct_a', anna!.id))!.samples)).toBe(MAX_SPEAKER_PROFILE_SAMPLES);
    const [centred] = await knownSpeakers(repos, 'acct_a');
    expect(centred!.centre.map((x) => Math.round(x * 1e6) / 1e6)).toEqual([0, Math.round((1 / Math.sqrt(1.25)) * 1e6) / 1e6, Math.round((0.5 / Math.sqrt(1.25)) * 1e6) / 1e6]);
  });

  it('rename, merge and delete, within the account; another account\'s id is not found', async () => {
    const { repos } = fx.store;
    const job = await recording('acct_a', 1);
    const other = await recording('acct_b', 2);
    await fx.store.tx(async ({ repos: r }) => {
      await nameSpeaker(r, 'acct_a', job, 'SPEAKER_0', 'Anna', AT);
      await nameSpeaker(r, 'acct_a', job, 'SPEAKER_1', 'Ben', AT);
      await nameSpeaker(r, 'acct_b', other, 'SPEAKER_0', 'Carla', AT);
    });
    const [anna, ben] = await repos.speakers.list('acct_a');
    const [carla] = await repos.speakers.list('acct_b');
    await expect(fx.store.tx(({ repos: r }) => renameProfile(r, 'acct_a', ben!.id, 'Anna', LATER))).rejects.toMatchObject({ code: 'conflict' });
    expect((await fx.store.tx(({ repos: r }) => renameProfile(r, 'acct_a', ben!.id, 'Benjamin', LATER))).name).toBe('Benjamin');
    await expect(fx.store.tx(({ repos: r }) => renameProfile(r, 'acct_a', carla!.id, 'Mine', LATER))).rejects.toMatchObject({ code: 'not_found' });
    await expect(fx.store.tx(({ repos: r }) => mergeProfiles(r, 'acct_a', ben!.id, carla!.id, LATER))).rejects.toMatchObject({ code: 'not_found' });
    const merged = await fx.store.tx(({ repos: r }) => mergeProfiles(r, 'acct_a', ben!.id, anna!.id, LATER));
    expect([merged.name, merged.samples]).toEqual(['Anna', 2]);
    expect((await repos.speakers.list('acct_a')).map((p) => p.name)).toEqual(['Anna']);
    await expect(fx.store.tx(({ repos: r }) => deleteProfile(r, 'acct_a', carla!.id))).rejects.toMatchObject({ code: 'not_found' });
    await fx.store.tx(({ repos: r }) => deleteProfile(r, 'acct_a', anna!.id));
    expect(await repos.speakers.list('acct_a')).toEqual([]);
    expect((await repos.speakers.list('acct_b')).map((p) => p.name)).toEqual(['Carla']);
  });

  it('a recording\'s voices are deleted with its job; the profiles made from them stay', async () => {
    const { repos } = fx.store;
    const job = await recording('acct_a', 1);
    await fx.store.tx(({ repos: r }) => nameSpeaker(r, 'acct_a', job, 'SPEAKER_0', 'Anna', AT));
    await fx.store.tx(({ repos: r }) => r.history.deleteJob(job));
    expect(await repos.speakers.voiceOf(job, 'SPEAKER_0')).toBeUndefined();
    expect((await knownSpeakers(repos, 'acct_a')).map((k) => k.name)).toEqual(['Anna']);
  });
});
