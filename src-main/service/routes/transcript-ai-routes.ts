/**
 * Language-model actions on a transcript (extension, docs/ai-actions.md):
 * - `POST /v1/speech-to-text/{id}/ai {"action", "language"?, "question"?}` — a job (product `transcript-ai`) on the
 *   transcript's latest revision, answered like every single-item POST: held until it ends or the hold window passes
 *   (`?wait=false`: answered at once with the queued job, which the AI panel then follows).
 *   Nothing is created for a bad body (400), a transcription that is not the key's or not finished (404/409), an
 *   account without a language model configured (409 language_model_not_configured), or a priced endpoint whose
 *   estimate the monthly cap cannot take (402 budget_exceeded, ai-pricing.ts). A transcript without words fails
 *   its job (`invalid_params`).
 * - `GET /v1/speech-to-text/{id}/ai` — the transcript's finished actions (their jobs, newest first).
 * - `GET /v1/speech-to-text/{id}/ai/{ai_job_id}` — an action's job with `partial_text`, the answer as it streams in
 *   (the AI panel polls it while the job runs).
 * - `GET /v1/speech-to-text/{id}/ai/{ai_job_id}/export?format=md|docx` — the answer as a file.
 * The job itself is also `/v1/transcript-ai/{ai_job_id}` (read, cancel, retry: job-routes.ts) and listed in Jobs.
 */
import { Hono, type Context } from 'hono';
import { AI_EXPORT_FORMATS, aiDocx, aiMarkdown, type AiExportFormat } from '../../common/ai-export.js';
import type { AiActionProgress } from '../../common/ai-types.js';
import type { Job } from '../../common/api-types.js';
import { ApiError } from '../../common/errors.js';
import { TRANSCRIPT_AI } from '../../common/products.js';
import { actionTitle, parseAiRequest } from '../../remote/language-model/ai-actions.js';
import { AI_MODEL_ID } from '../../remote/language-model/ai-model.js';
import type { AiJobParams } from '../../remote/language-model/ai-runner.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';
import { contentDisposition } from '../http/file-response.js';
import { readJsonObject } from '../http/json-body.js';
import { queryOf, singleQuery } from '../http/query-params.js';
import { holdJob, idempotencyOf, waitsForJob } from './submission.js';

/** The account's action job `aiJobId` made from transcription `jobId`; 404 otherwise. */
async function actionJob(c: Context<AppEnv>, deps: AppDeps): Promise<Job> {
  const accountId = c.get('owner').accountId;
  const id = c.req.param('aiJobId')!;
  const job = await deps.jobs.getJob(accountId, TRANSCRIPT_AI, id);
  if (!job) throw new ApiError('not_found', `no AI action ${id} on this transcript`);
  const row = await deps.store.repos.jobs.getWithoutResult(id);
  const params = row ? (JSON.parse(row.params_json) as Partial<AiJobParams>) : {};
  if (params.source_job_id !== c.req.param('jobId')) throw new ApiError('not_found', `no AI action ${id} on this transcript`);
  return job;
}

export function transcriptAiRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post('/v1/speech-to-text/:jobId/ai', async (c) => {
    const wait = waitsForJob(c);
    const accountId = c.get('owner').accountId;
    const sourceId = c.req.param('jobId');
    const request = parseAiRequest(await readJsonObject(c));
    // 404 for another account's or an unknown job, 409 for one not finished (jobs/transcripts).
    // Its revision number only (and, for a priced endpoint, its lines for the estimate): the run reads it again.
    const latest = await deps.transcripts.get(accountId, sourceId, null);
    if (!deps.languageModel.settings.endpoint(accountId)) {
      throw new ApiError('language_model_not_configured', 'No language model is configured: set one in Settings → Language model (PUT /v1/settings/language-model), then try again.');
    }
    // A priced endpoint: the estimate is checked against the monthly cap now (402 budget_exceeded, nothing created).
    const estimatedUsdMicro = await deps.languageModel.runner.admit(accountId, request, latest.json);
    const source = await deps.jobs.getJob(accountId, 'speech-to-text', sourceId);
    const params: AiJobParams = { ...request, source_job_id: sourceId, base_revision: latest.revision };
    const { job } = await deps.jobs.createJob(
      {
      accountId,
      product: TRANSCRIPT_AI,
      modelId: AI_MODEL_ID,
      name: `${actionTitle(request)} — ${source?.name ?? sourceId}`,
      language: request.language,
      params: params as unknown as Record<string, unknown>,
      input: {},
      estimatedSeconds: 0,
      ...(estimatedUsdMicro !== undefined ? { estimatedUsdMicro } : {}),
      },
      // The same Idempotency-Key with the same request answers the job it made (no second action), as on every POST.
      idempotencyOf(c, request),
    );
    return c.json(await holdJob(c, deps, accountId, TRANSCRIPT_AI, job, wait));
  });

  app.get('/v1/speech-to-text/:jobId/ai', async (c) => {
    const accountId = c.get('owner').accountId;
    const sourceId = c.req.param('jobId');
    await deps.transcripts.get(accountId, sourceId, null); // 404 / 409 as for the transcript itself
    const rows = await deps.store.repos.transcriptAi.resultsFor(accountId, sourceId);
    const data: Job[] = [];
    for (const row of rows) {
      const job = await deps.jobs.getJob(accountId, TRANSCRIPT_AI, row.job_id);
      if (job) data.push(job);
    }
    return c.json({ object: 'list', data });
  });

  app.get('/v1/speech-to-text/:jobId/ai/:aiJobId', async (c) => {
    const job = await actionJob(c, deps);
    const progress: AiActionProgress = { job_id: job.id, status: job.status, partial_text: deps.languageModel.runner.partialText(job.id) };
    return c.json({ ...progress, job });
  });

  app.get('/v1/speech-to-text/:jobId/ai/:aiJobId/export', async (c) => {
    const format = (singleQuery(queryOf(c.req.url), 'format') ?? 'md') as AiExportFormat;
    if (!AI_EXPORT_FORMATS.includes(format)) throw new ApiError('invalid_request', `format must be one of ${AI_EXPORT_FORMATS.join(', ')}`);
    const job = await actionJob(c, deps);
    const ai = job.result?.ai;
    if (job.status !== 'succeeded' || !ai) throw new ApiError('conflict', `AI action ${job.id} is ${job.status}; only a finished one can be exported`);
    const source = await deps.jobs.getJob(c.get('owner').accountId, 'speech-to-text', ai.source_job_id);
    const title = job.name ?? job.id;
    const subtitle = `From ${source?.name ?? ai.source_job_id}, revision ${ai.base_revision}, by ${ai.model} on ${(job.finished_at ?? job.created_at).slice(0, 10)}`;
    const input = { title, subtitle, text: job.result?.text ?? '' };
    const fileName = `${title.replace(/[\\/:*?"<>|]+/g, '_')}.${format}`;
    if (format === 'md') return c.body(aiMarkdown(input), 200, { 'Content-Type': 'text/markdown; charset=utf-8', 'Content-Disposition': contentDisposition(fileName) });
    const bytes = await aiDocx(input);
    return c.body(bytes, 200, {
      'Content-Type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'Content-Disposition': contentDisposition(fileName),
    });
  });
  return app;
}
