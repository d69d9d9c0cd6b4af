/**
 * The account's speaker library (extension, issue 29.3, docs/speakers.md): `GET /v1/speakers` lists the profiles,
 * `PATCH /v1/speakers/{id}` `{"name"}` renames one, `POST /v1/speakers/{id}/merge` `{"into"}` merges one into
 * another, `DELETE /v1/speakers/{id}` deletes one. Profiles are made by naming a speaker in a transcript (PATCH
 * …/transcript). Another account's id is 404 not_found. The rules are jobs/transcripts/speaker-library.ts's.
 */
import { Hono } from 'hono';
import { ApiError } from '../../common/errors.js';
import { deleteProfile, mergeProfiles, profileName, profileView, renameProfile } from '../../jobs/transcripts/speaker-library.js';
import { isoAt, systemClock } from '../../store/clock.js';
import type { Store } from '../../store/store.js';
import type { AppEnv } from '../app-env.js';
import { readJsonObject } from '../http/json-body.js';

function only(body: Record<string, unknown>, field: string): unknown {
  const unknown = Object.keys(body).find((key) => key !== field);
  if (unknown !== undefined) throw new ApiError('unsupported_param', `unknown field "${unknown}"; this route takes only "${field}"`);
  if (body[field] === undefined) throw new ApiError('invalid_request', `${field} is required`);
  return body[field];
}

export function speakerRoutes(store: Store): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/speakers', async (c) => {
    const rows = await store.repos.speakers.list(c.get('owner').accountId);
    return c.json({ object: 'list', data: rows.map(profileView) });
  });
  app.patch('/v1/speakers/:id', async (c) => {
    const name = profileName(only(await readJsonObject(c), 'name'));
    const accountId = c.get('owner').accountId;
    return c.json(await store.tx(({ repos }) => renameProfile(repos, accountId, c.req.param('id'), name, isoAt(systemClock))));
  });
  app.post('/v1/speakers/:id/merge', async (c) => {
    const into = only(await readJsonObject(c), 'into');
    if (typeof into !== 'string' || into === '') throw new ApiError('invalid_request', 'into must be the id of the speaker to merge into (GET /v1/speakers lists them)');
    const accountId = c.get('owner').accountId;
    return c.json(await store.tx(({ repos }) => mergeProfiles(repos, accountId, c.req.param('id'), into, isoAt(systemClock))));
  });
  app.delete('/v1/speakers/:id', async (c) => {
    const id = c.req.param('id');
    const accountId = c.get('owner').accountId;
    await store.tx(({ repos }) => deleteProfile(repos, accountId, id));
    return c.json({ id, object: 'speaker', deleted: true });
  });
  return app;
}
