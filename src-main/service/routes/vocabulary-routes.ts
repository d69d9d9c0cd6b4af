/**
 * `GET`/`PUT /v1/vocabulary` (extension, issue 29.4, docs/transcripts.md#vocabulary): the account's hotwords and
 * replacements. PUT replaces both lists whole (send `[]` to empty one) and answers what is stored; the checks are
 * common/vocabulary.ts's. New transcriptions use it from then on (jobs/transcripts/vocabulary-revision.ts).
 */
import { Hono } from 'hono';
import { EMPTY_VOCABULARY, parseVocabulary } from '../../common/vocabulary.js';
import type { StoreRepos } from '../../store/store.js';
import type { AppEnv } from '../app-env.js';
import { readJsonObject } from '../http/json-body.js';

export function vocabularyRoutes(repos: Pick<StoreRepos, 'vocabulary'>): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/vocabulary', async (c) => c.json((await repos.vocabulary.get(c.get('owner').accountId)) ?? EMPTY_VOCABULARY));
  app.put('/v1/vocabulary', async (c) => {
    const vocabulary = parseVocabulary(await readJsonObject(c));
    await repos.vocabulary.put(c.get('owner').accountId, vocabulary);
    return c.json(vocabulary);
  });
  return app;
}
