/**
 * The account's saved voices (extension, issue 33.3, docs/voices.md): `GET /v1/voices` lists them, `GET
 * /v1/voices/{id}` shows one, `PATCH /v1/voices/{id}` `{"name"}` renames one, `DELETE /v1/voices/{id}` deletes one
 * (and a cloned voice's recording). Designed voices are saved by voice design (`save_as`); a cloned voice is made by
 * `POST /v1/voices` (multipart: `name`, optional `reference_text`, and `audio`, the recording) from a recording the
 * account uploads in that same request, and only so: the consent rule (a voice is cloned from no other recording:
 * not another account's, not a job's, not a URL). Its recording is kept with the account's uploads and counts in its
 * upload quota until the voice is deleted. Another account's id is 404 not_found, as an unknown one.
 */
import { Hono } from 'hono';
import { rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { ApiError } from '../../common/errors.js';
import { statedDuration } from '../../engines/audio/probe.js';
import { MAX_REFERENCE_BYTES, MAX_REFERENCE_SECONDS, MIN_REFERENCE_SECONDS } from '../../engines/cloning/cloning-params.js';
import { isoAt, systemClock } from '../../store/clock.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';
import { readJsonObject } from '../http/json-body.js';
import { saveClonedVoice, savedVoiceView, voiceName } from '../voices/saved-voices.js';
import { sniffReference } from '../voices/reference-recording.js';

/** Longest reference text, in code points. */
const MAX_REFERENCE_TEXT_CHARS = 1000;
/**
 * A saved voice's recording takes the length every route that speaks in it takes (engines/cloning/cloning-params.ts):
 * a voice saved longer would be refused wherever it is used.
 */
export const REFERENCE_SECONDS = { min: MIN_REFERENCE_SECONDS, max: MAX_REFERENCE_SECONDS } as const;

function notFound(id: string): ApiError {
  return new ApiError('not_found', `no saved voice ${id}; GET /v1/voices lists this account's voices`);
}

export function voiceRoutes(deps: Pick<AppDeps, 'store' | 'uploads' | 'uploadsDir' | 'files'>): Hono<AppEnv> {
  const { store } = deps;
  const app = new Hono<AppEnv>();
  app.get('/v1/voices', async (c) => {
    const rows = await store.repos.savedVoices.list(c.get('owner').accountId);
    return c.json({ object: 'list', data: rows.map(savedVoiceView) });
  });
  app.get('/v1/voices/:id', async (c) => {
    const row = await store.repos.savedVoices.get(c.get('owner').accountId, c.req.param('id'));
    if (!row) throw notFound(c.req.param('id'));
    return c.json(savedVoiceView(row));
  });
  app.patch('/v1/voices/:id', async (c) => {
    const body = await readJsonObject(c);
    const unknown = Object.keys(body).find((key) => key !== 'name');
    if (unknown !== undefined) throw new ApiError('unsupported_param', `unknown field "${unknown}"; this route takes only "name"`);
    const name = voiceName(body.name);
    const accountId = c.get('owner').accountId;
    const id = c.req.param('id');
    if (!(await store.repos.savedVoices.rename(accountId, id, name, isoAt(systemClock)))) throw notFound(id);
    return c.json(savedVoiceView((await store.repos.savedVoices.get(accountId, id))!));
  });
  app.delete('/v1/voices/:id', async (c) => {
    const id = c.req.param('id');
    const row = await store.repos.savedVoices.delete(c.get('owner').accountId, id);
    if (!row) throw notFound(id);
    if (row.reference_path) {
      const path = join(deps.uploadsDir, row.reference_path);
      // With object storage the recording's object goes too (a folder's file goes with its folder below).
      if (deps.files.kind === 's3') await deps.files.remove(deps.files.nameOf(path) ?? path).catch(() => undefined);
      await rm(dirname(path), { recursive: true, force: true });
    }
    return c.json({ id, object: 'voice', deleted: true });
  });
  app.post('/v1/voices', async (c) => {
    const accountId = c.get('owner').accountId;
    let name: string | null = null;
    let text: string | null = null;
    const upload = await deps.uploads.receive(accountId, c.req.raw, {
      onField(field, value) {
        if (field === 'name') name = voiceName(value);
        else if (field === 'reference_text') {
          if ([...value].length > MAX_REFERENCE_TEXT_CHARS) throw new ApiError('text_too_long', `reference_text is longer than ${MAX_REFERENCE_TEXT_CHARS} characters`, { param: 'reference_text' });
          text = value.trim() || null;
        } else throw new ApiError('unsupported_param', `unknown part "${field}"; this route takes name, reference_text and audio (the recording, as a file)`);
      },
      beforeFile(field, _fileName, index) {
        if (field !== 'audio') throw new ApiError('unsupported_param', `unknown file part "${field}": the recording goes in the part named audio`);
        if (index > 0) throw new ApiError('invalid_request', 'send one recording (one audio part)');
        return { maxBytes: MAX_REFERENCE_BYTES, limitNote: `a reference recording of up to ${MAX_REFERENCE_SECONDS} s is enough` };
      },
    });
    try {
      const file = upload.files[0];
      if (!file) throw new ApiError('file_required', 'the audio part is required: the recording of the voice to clone (curl -F audio=@me.wav)');
      if (name === null) throw new ApiError('invalid_request', 'the name part is required: what to call the voice');
      await sniffReference(file.path);
      const seconds = await statedDuration(file.path);
      if (seconds !== null && (seconds < REFERENCE_SECONDS.min || seconds > REFERENCE_SECONDS.max)) {
        throw new ApiError('invalid_request', `the recording is ${seconds.toFixed(1)} s long; a reference recording must be ${REFERENCE_SECONDS.min}–${REFERENCE_SECONDS.max} s of the voice speaking`, { param: 'audio' });
      }
      await deps.files.keep(file.path); // with object storage: put in the bucket, so every node can speak the voice
      const row = await saveClonedVoice(store, accountId, { name, referencePath: relative(deps.uploadsDir, file.path), bytes: file.bytes, text });
      return c.json(savedVoiceView(row));
    } catch (error) {
      await upload.discard();
      throw error;
    }
  });
  return app;
}
