/**
 * The rules of an account's speaker library (issue 29.3, docs/speakers.md). Every write here runs inside the caller's
 * transaction, on rows only: voices were computed by the engine worker when the recording was diarized
 * (engines/asr/diarization-voices.ts) and kept with it (recording_voices), so naming a speaker costs no audio work.
 * - **Naming** a speaker of a recording (a transcript edit that gives a speaker key a name) keeps that speaker's voice
 *   as a sample of the profile of that name, made when the account has none. One recording's speaker is a sample of
 *   one profile at most: naming it again moves its sample, and a profile left with no samples at all goes; naming it
 *   X takes back an earlier "not X" of it (how Ctrl+Z undoes one).
 *   A name that is a speaker key ("SPEAKER_0", or the speaker's own key such as a meeting's "Other side 2": how an
 *   edit is undone) takes the voice out of the library instead.
 * - **"Not X"** (an edit's `not_speakers`): the voice leaves X's samples and becomes one of X's "not" samples, which
 *   keeps X from matching it (common/speaker-matching.ts).
 * - A profile keeps its newest MAX_SPEAKER_PROFILE_SAMPLES voices and MAX_SPEAKER_NOT_SAMPLES "not" voices, and the
 *   centre of its voices is stored with it, made again whenever they change (recentre).
 * Later recordings are matched against the profiles when their job is handed to a worker (knownSpeakers).
 */
import { ApiError } from '../../common/errors.js';
import { MAX_SPEAKER_NAME_CHARS, MAX_SPEAKER_NOT_SAMPLES, MAX_SPEAKER_PROFILE_SAMPLES, MAX_SPEAKER_PROFILES } from '../../common/limits.js';
import { centreOf, type KnownSpeaker, type RecordingVoice } from '../../common/speaker-matching.js';
import type { SpeakerProfile } from '../../common/speaker-profile.js';
import { newId } from '../../store/ids.js';
import type { SpeakerProfileRow } from '../../store/speakers-repo.js';
import type { StoreRepos } from '../../store/store.js';

type Repos = Pick<StoreRepos, 'speakers'>;

/** Engine speaker keys: a "name" like these is no person's name (an undo gives a speaker its key back). */
const ENGINE_KEY = /^SPEAKER_\d+$/;

export function profileView(row: SpeakerProfileRow): SpeakerProfile {
  return { id: row.id, object: 'speaker', name: row.name, created_at: row.created_at, updated_at: row.updated_at, samples: Number(row.samples), not_samples: Number(row.not_samples) };
}

/** A recording's voices as rows (kept when its transcription succeeds). */
export async function keepRecordingVoices(repos: Repos, jobId: string, voices: readonly RecordingVoice[]): Promise<void> {
  await repos.speakers.putVoices(voices.map((v) => ({ job_id: jobId, speaker: v.speaker, seconds: v.seconds, embedding_json: JSON.stringify(v.embedding) })));
}

/** The profile's voices trimmed to the newest MAX_SPEAKER_PROFILE_SAMPLES and its stored centre made from them. */
async function recentre(repos: Repos, profileId: string): Promise<void> {
  await repos.speakers.trimSamples(profileId, 'voice', MAX_SPEAKER_PROFILE_SAMPLES);
  const centre = centreOf((await repos.speakers.embeddingsOf(profileId, 'voice')).map((json) => JSON.parse(json) as number[]));
  await repos.speakers.setCentre(profileId, centre ? JSON.stringify(centre) : null);
}

/** Profiles that lost voices: deleted when nothing is left of them, else given their new centre. */
async function afterRemoval(repos: Repos, accountId: string, profileIds: readonly string[]): Promise<void> {
  for (const id of profileIds) {
    const row = await repos.speakers.get(accountId, id);
    if (!row) continue;
    if (Number(row.samples) === 0 && Number(row.not_samples) === 0) await repos.speakers.delete(id);
    else await recentre(repos, id);
  }
}

/** A person named speaker `key` of recording `jobId` `name` (see the docblock). */
export async function nameSpeaker(repos: Repos, accountId: string, jobId: string, key: string, name: string, at: string): Promise<void> {
  const voice = await repos.speakers.voiceOf(jobId, key);
  if (!voice) return; // diarized before voices were kept, or too little of this speaker to tell a voice by
  const left = await repos.speakers.removeRecordingSamples(accountId, 'voice', jobId, key);
  let kept: string | null = null;
  // A speaker given back its own key ("Other side 2" of a meeting, SPEAKER_1) is an undo, not a person's name.
  if (name !== key && !ENGINE_KEY.test(name)) {
    let profile = await repos.speakers.byName(accountId, name);
    // A full library makes no new profile; the speaker is still named in this transcript (docs/speakers.md).
    if (!profile && (await repos.speakers.count(accountId)) < MAX_SPEAKER_PROFILES) {
      const id = newId('spk');
      await repos.speakers.create({ id, account_id: accountId, name, created_at: at });
      profile = await repos.speakers.get(accountId, id);
    }
    if (profile) {
      await repos.speakers.addSample({ profile_id: profile.id, kind: 'voice', job_id: jobId, speaker: key, embedding_json: voice.embedding_json, created_at: at });
      // Named so after all (an undone "not X"): this voice is no longer one the profile must not match.
      await repos.speakers.removeProfileSamples(profile.id, 'not', jobId, key);
      await recentre(repos, profile.id);
      await repos.speakers.touch(profile.id, at);
      kept = profile.id;
    }
  }
  await afterRemoval(repos, accountId, left.filter((id) => id !== kept));
}

/** "Speaker `key` of recording `jobId` is not `name`" (see the docblock). */
export async function notSpeaker(repos: Repos, accountId: string, jobId: string, key: string, name: string, at: string): Promise<void> {
  const profile = await repos.speakers.byName(accountId, name);
  const voice = await repos.speakers.voiceOf(jobId, key);
  if (!profile || !voice) return;
  await repos.speakers.removeRecordingSamples(accountId, 'voice', jobId, key);
  await repos.speakers.addSample({ profile_id: profile.id, kind: 'not', job_id: jobId, speaker: key, embedding_json: voice.embedding_json, created_at: at });
  await repos.speakers.trimSamples(profile.id, 'not', MAX_SPEAKER_NOT_SAMPLES);
  await recentre(repos, profile.id);
  await repos.speakers.touch(profile.id, at);
}

/** The account's profiles as the engine matches them: those with a centre (at least one voice), with their "not" voices. */
export async function knownSpeakers(repos: Repos, accountId: string): Promise<KnownSpeaker[]> {
  const byProfile = new Map<string, KnownSpeaker>();
  for (const row of await repos.speakers.known(accountId)) {
    let entry = byProfile.get(row.profile_id);
    if (!entry) byProfile.set(row.profile_id, (entry = { id: row.profile_id, name: row.name, centre: JSON.parse(row.centre_json) as number[], not: [] }));
    if (row.not_json !== null) entry.not.push(JSON.parse(row.not_json) as number[]);
  }
  return [...byProfile.values()];
}

/** A profile name from a request: trimmed, 1–MAX_SPEAKER_NAME_CHARS characters, no control characters. */
export function profileName(value: unknown): string {
  // eslint-disable-next-line no-control-regex
  if (typeof value !== 'string' || /[\u0000-\u001f\u007f]/.test(value)) throw new ApiError('invalid_request', 'name must be a string: the speaker\'s name');
  const name = value.replace(/\s+/g, ' ').trim();
  if (name === '' || name.length > MAX_SPEAKER_NAME_CHARS) throw new ApiError('invalid_request', `name must be 1–${MAX_SPEAKER_NAME_CHARS} characters`);
  if (ENGINE_KEY.test(name)) throw new ApiError('invalid_request', `name ${name} is a speaker key, not a name: give the person's name`);
  return name;
}

function notFound(id: string): ApiError {
  return new ApiError('not_found', `no speaker ${id} in this account's speaker library (GET /v1/speakers lists them)`);
}

async function owned(repos: Repos, accountId: string, id: string): Promise<SpeakerProfileRow> {
  const row = await repos.speakers.get(accountId, id);
  if (!row) throw notFound(id);
  return row;
}

/** Renames a profile; 409 when another profile has that name (merge them instead). */
export async function renameProfile(repos: Repos, accountId: string, id: string, name: string, at: string): Promise<SpeakerProfile> {
  const row = await owned(repos, accountId, id);
  if (row.name === name) return profileView(row);
  const other = await repos.speakers.byName(accountId, name);
  if (other) throw new ApiError('conflict', `another speaker is called ${name} (${other.id}): merge the two (POST /v1/speakers/${id}/merge {"into": "${other.id}"}) instead`);
  await repos.speakers.rename(id, name, at);
  return profileView((await repos.speakers.get(accountId, id))!);
}

/** Moves every sample of profile `id` into profile `into` and deletes `id`; answers the merged profile. */
export async function mergeProfiles(repos: Repos, accountId: string, id: string, into: string, at: string): Promise<SpeakerProfile> {
  if (id === into) throw new ApiError('invalid_request', `a speaker cannot be merged into itself (${id})`);
  await owned(repos, accountId, id);
  await owned(repos, accountId, into);
  await repos.speakers.moveSamples(id, into);
  await repos.speakers.delete(id);
  await repos.speakers.trimSamples(into, 'not', MAX_SPEAKER_NOT_SAMPLES);
  await recentre(repos, into);
  await repos.speakers.touch(into, at);
  return profileView((await repos.speakers.get(accountId, into))!);
}

export async function deleteProfile(repos: Repos, accountId: string, id: string): Promise<void> {
  await owned(repos, accountId, id);
  await repos.speakers.delete(id);
}
