/**
 * The job runner of language-model actions (job product `transcript-ai`, model `language-model`): the job engine
 * claims, leases, cancels and settles these jobs like any other (docs/job-engine.md), and hands their runs here
 * through the runner switch (ai-model.ts). A run reads the transcript revision the action was asked on, splits it to
 * fit the model's context, asks the account's endpoint part by part (answers streamed, each kept in
 * `transcript_ai_parts` as it arrives: a run after a SIGKILL asks only for the rest), combines the parts, checks the
 * cited times against the segments, indexes the answer for the library search (ai-search-rows.ts), and — for
 * clean-up — saves the cleaned text as the transcript's next revision through the one owner of edits
 * (jobs/transcripts). The answer is the job's result (`result.text`, `result.ai`).
 * On a priced endpoint each request is kept within the job's reservation or the monthly cap, and the job is charged
 * for its answers' tokens (ai-pricing.ts).
 */
import type { AiCitation, AiResult } from '../../common/ai-types.js';
import { ApiError, JobError } from '../../common/errors.js';
import { MAX_SEGMENT_TEXT_CHARS } from '../../common/limits.js';
import type { RevisionSegment, SegmentPatch, TranscriptRevision } from '../../common/transcript-types.js';
import type { EngineOutput } from '../../engines/engine-types.js';
import type { JobRunner, RunnerContext, RunnerTask } from '../../jobs/engine/job-runner.js';
import { indexAiAnswer } from '../../jobs/transcripts/ai-search-rows.js';
import type { Transcripts } from '../../jobs/transcripts/transcripts.js';
import { createSpendingCap } from '../../jobs/money/spending-cap.js';
import { isoAt } from '../../store/clock.js';
import type { Store } from '../../store/store.js';
import { mapPrompt, reducePrompt, type AiAction, type AiRequest } from './ai-actions.js';
import { answerTokens, DEFAULT_CONTEXT_TOKENS, partBudget, transcriptLines } from './ai-chunks.js';
import { checkCitations } from './ai-citations.js';
import { budgetRefused, capRefusal, chargeAction, createActionMeter, estimateActionMicro, isPriced } from './ai-pricing.js';
import { runMapReduce } from './ai-map-reduce.js';
import type { LanguageModelSettings } from './language-model-settings.js';

/** What an action's job carries in `params` (written by the route, read here). */
export interface AiJobParams {
  action: AiAction;
  language: string | null;
  question: string | null;
  source_job_id: string;
  base_revision: number;
}

export interface AiRunnerOptions {
  store: Store;
  settings: LanguageModelSettings;
  transcripts: Transcripts;
  /** Per-request timeouts (tests shorten them; default: language-model-client.ts's). */
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
}

export interface AiRunner extends JobRunner {
  /** The answer received so far of a job running here (the part being answered now), or null. */
  partialText(jobId: string): string | null;
  /**
   * For a POST: the estimate (micro-dollars) of an action when the account's endpoint is priced, undefined when it
   * is not (free); throws 402 budget_exceeded when the monthly cap cannot take the estimate (ai-pricing.ts).
   */
  admit(accountId: string, request: AiRequest, revisionJson: string): Promise<number | undefined>;
}

/** `[n] text` lines of a clean-up answer → the segments whose text it changed. */
export function cleanUpPatches(answer: string, segments: readonly RevisionSegment[]): SegmentPatch[] {
  const byIndex = new Map(segments.map((s) => [s.index, s]));
  const patches = new Map<number, SegmentPatch>();
  for (const line of answer.split('\n')) {
    const match = /^\s*\[(\d+)\]\s?(.*)$/.exec(line);
    if (!match) continue;
    const index = Number(match[1]);
    const text = match[2]!.replace(/\s+/g, ' ').trim();
    const segment = byIndex.get(index);
    // eslint-disable-next-line no-control-regex
    if (!segment || !text || text === segment.text.trim() || text.length > MAX_SEGMENT_TEXT_CHARS || /[\u0000-\u001f\u007f]/.test(text)) continue;
    patches.set(index, { index, text });
  }
  return [...patches.values()];
}

/** A revision as the API answers it, parsed (the transcripts module hands it over as JSON text). */
export async function readRevision(transcripts: Pick<Transcripts, 'get'>, accountId: string, jobId: string, revision: number | null): Promise<TranscriptRevision> {
  return JSON.parse((await transcripts.get(accountId, jobId, revision)).json) as TranscriptRevision;
}

export function createAiRunner(options: AiRunnerOptions): AiRunner {
  const { store, settings, transcripts } = options;
  const live = new Map<string, string>();
  // The one check of the monthly cap hosted work uses (jobs/money/spending-cap.ts); it keeps no state of its own.
  const cap = createSpendingCap(store.clock);

  async function admit(accountId: string, request: AiRequest, revisionJson: string): Promise<number | undefined> {
    const endpoint = settings.endpoint(accountId);
    if (!endpoint || !isPriced(endpoint.price)) return undefined;
    // Parsed only for a priced endpoint: the estimate needs the lines the run will send.
    const { segments } = JSON.parse(revisionJson) as TranscriptRevision;
    const micro = estimateActionMicro(endpoint.price, request, transcriptLines(segments, request.action), endpoint.contextTokens ?? DEFAULT_CONTEXT_TOKENS);
    const why = await capRefusal(store, cap, micro, "this AI action's estimate");
    if (why) throw budgetRefused(why);
    return micro;
  }

  /** Whether a run that threw ends its job: an error of its own, or a stop the job's owner asked for (a cancel). */
  async function endsHere(jobId: string, signal: AbortSignal): Promise<boolean> {
    if (!signal.aborted) return true;
    return (await store.repos.jobs.getWithoutResult(jobId))?.cancel_requested === 1;
  }

  /** Saves the clean-up as the next revision; a run after a crash that finds its own edit already saved takes it. */
  async function saveCleanUp(accountId: string, params: AiJobParams, patches: SegmentPatch[]): Promise<number> {
    if (patches.length === 0) return params.base_revision;
    try {
      return (await transcripts.edit(accountId, params.source_job_id, { base_revision: params.base_revision, segments: patches })).revision;
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'conflict') throw error;
      const latest = await readRevision(transcripts, accountId, params.source_job_id, null);
      const ours = patches.every((p) => latest.segments.find((s) => s.index === p.index)?.text === p.text);
      if (ours) return latest.revision;
      throw new JobError('conflict', `The transcript was edited (revision ${latest.revision}) while the clean-up of revision ${params.base_revision} ran; run the clean-up again on the new revision.`);
    }
  }

  async function run(task: RunnerTask, ctx: RunnerContext): Promise<EngineOutput> {
    const params = task.params as unknown as AiJobParams;
    const endpoint = settings.endpoint(task.accountId);
    if (!endpoint) {
      throw new JobError('language_model_not_configured', 'No language model is configured: set one in Settings → Language model (PUT /v1/settings/language-model).');
    }
    let revision: TranscriptRevision;
    try {
      revision = await readRevision(transcripts, task.accountId, params.source_job_id, params.base_revision);
    } catch (error) {
      if (error instanceof ApiError) throw new JobError('invalid_params', `The transcript cannot be read: ${error.message}`);
      throw error;
    }
    const request: AiRequest = { action: params.action, language: params.language, question: params.question };
    const lines = transcriptLines(revision.segments, params.action);
    if (lines.length === 0) throw new JobError('invalid_params', `Transcription ${params.source_job_id} has no words for a language model to read.`);
    const kept = await store.repos.transcriptAi.parts(task.jobId);
    const contextTokens = endpoint.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
    const maxTokens = answerTokens(params.action, contextTokens);
    // A priced endpoint: each request kept within the job's reservation or the cap, the answers charged once.
    const meter = isPriced(endpoint.price)
      ? createActionMeter({
          store, cap, price: endpoint.price, jobId: task.jobId, accountId: task.accountId, kept, maxTokens,
          reservedMicro: (await store.repos.jobs.getWithoutResult(task.jobId))?.reserved_usd_micro ?? 0,
        })
      : null;
    live.set(task.jobId, '');
    try {
      const outcome = await runMapReduce({
        endpoint,
        lines,
        budget: partBudget(params.action, contextTokens),
        maxTokens,
        mapPrompt: (part, parts) => mapPrompt(request, part, parts),
        reducePrompt: reducePrompt(request),
        kept,
        ...(meter ? { beforeRequest: (system: string, user: string) => meter.beforeRequest(system, user) } : {}),
        keep: (stage, part, answer) => {
          meter?.paid(answer.usage.promptTokens, answer.usage.completionTokens);
          return store.repos.transcriptAi.putPart({
            job_id: task.jobId,
            stage,
            part,
            text: answer.text,
            prompt_tokens: answer.usage.promptTokens,
            completion_tokens: answer.usage.completionTokens,
            created_at: isoAt(store.clock),
          });
        },
        signal: ctx.signal,
        onText: (piece, restart) => live.set(task.jobId, restart ? piece : (live.get(task.jobId) ?? '') + piece),
        onProgress: (fraction) => ctx.progress(fraction),
        ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
        ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
      });
      let text = outcome.text;
      let citations: AiCitation[] = [];
      let newRevision: number | null = null;
      if (params.action === 'clean_up') {
        newRevision = await saveCleanUp(task.accountId, params, cleanUpPatches(outcome.text, revision.segments));
      } else {
        ({ text, citations } = checkCitations(outcome.text, revision.segments));
      }
      const ai: AiResult = {
        action: params.action,
        source_job_id: params.source_job_id,
        base_revision: revision.revision,
        revision: newRevision,
        language: params.language,
        question: params.question,
        citations,
        parts: outcome.parts,
        tokens: { prompt: outcome.promptTokens, completion: outcome.completionTokens, estimated: outcome.estimated },
        model: endpoint.model,
      };
      // Listed with the transcript, charged, and indexed for the library search (found once the job succeeds).
      await indexAiAnswer(
        store,
        async (repos) => {
          await repos.transcriptAi.putResult({
            job_id: task.jobId,
            source_job_id: params.source_job_id,
            account_id: task.accountId,
            action: params.action,
            created_at: isoAt(store.clock),
          });
          if (meter) await chargeAction(repos, { id: task.jobId, accountId: task.accountId }, meter.costMicro, isoAt(store.clock));
        },
        { sourceJobId: params.source_job_id, aiJobId: task.jobId, action: params.action, text },
      );
      return { result: { text, ai } as EngineOutput['result'], artifacts: [], durationSeconds: 0 };
    } catch (error) {
      // Failed or cancelled part way: the answers received were paid for at the endpoint, so they are charged now.
      // A run stopped for the job to go on elsewhere (a lost lease, the service closing) is not charged: the run that
      // finishes the job charges every answer then, the ledger taking one usage charge per job.
      if (meter && (await endsHere(task.jobId, ctx.signal))) {
        await chargeAction(store.repos, { id: task.jobId, accountId: task.accountId }, meter.costMicro, isoAt(store.clock));
      }
      throw error;
    } finally {
      live.delete(task.jobId);
    }
  }

  return {
    run,
    partialText: (jobId) => live.get(jobId) ?? null,
    admit,
  };
}
