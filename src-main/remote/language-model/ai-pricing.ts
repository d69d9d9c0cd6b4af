/**
 * What a language-model action costs when the endpoint is hosted and priced (docs/ai-actions.md "Price and the
 * monthly cap"). The settings may give a price per million prompt (input) and answer (output) tokens; without one the
 * endpoint is taken to be local and free, as before. A priced action goes through the one mechanism hosted work
 * uses (jobs/money/spending-cap.ts):
 * - POST: its estimate — each request's estimated prompt (the splitter's own estimate, characters / 4) plus the most
 *   it may answer (`max_tokens`, ai-chunks.ts answerTokens), for every part and every combining round — is checked
 *   against the monthly cap; when the cap cannot take it the POST is refused (402 budget_exceeded) and nothing is
 *   created. Otherwise the job records the estimate, and the job engine reserves it when it claims the job (a job
 *   the cap can no longer take by then waits with `waiting_for_budget`, like any hosted job).
 * - Before each request the run checks that what the job has cost so far plus that request's worst case stays within
 *   its reservation; past it, the rest must fit the cap (checkLive), else the job fails with `budget_exceeded` and is
 *   charged for what it received.
 * - When the run ends it is charged (ledger kind `usage`, provider `remote`, so it counts in the cap and shows in
 *   GET /v1/usage) for the tokens of every answer kept for the job: the endpoint's reported `usage` (a streamed
 *   answer's final chunk), else the estimate. Answers are kept as they arrive (transcript_ai_parts) and the ledger
 *   takes one usage charge per job, so a run again after a SIGKILL is charged once, for every answer, each paid once.
 *
 * Prices are USD per million tokens, so one token costs that many micro-dollars.
 */
import { ApiError, JobError } from '../../common/errors.js';
import { toMicro } from '../../common/pricing.js';
import { TRANSCRIPT_AI } from '../../common/products.js';
import { usdText, type SpendingCap } from '../../jobs/money/spending-cap.js';
import type { Store, StoreRepos } from '../../store/store.js';
import { mapPrompt, reducePrompt, type AiRequest } from './ai-actions.js';
import { answerTokens, partBudget, PROMPT_RESERVE_TOKENS, splitLines } from './ai-chunks.js';
import { AI_MODEL_ID } from './ai-model.js';
import { estimateTokens } from './language-model-client.js';

/** USD per million tokens, as hosted endpoints publish their prices. */
export interface LanguageModelPrice {
  input_per_million_tokens: number;
  output_per_million_tokens: number;
}

/** The highest price taken per million tokens (a typo guard: the dearest hosted models cost well under this). */
export const MAX_PRICE_PER_MILLION = 10_000;

/** A `price` field of the settings checked; throws a message that says what is wrong. null: no price (free). */
export function parsePrice(value: unknown): LanguageModelPrice | null {
  if (value === null || value === undefined) return null;
  const shape = 'price must be {"input_per_million_tokens": USD, "output_per_million_tokens": USD} (e.g. 0.15 and 0.6), or null for a free, local endpoint';
  if (typeof value !== 'object' || Array.isArray(value)) throw new Error(shape);
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((k) => k !== 'input_per_million_tokens' && k !== 'output_per_million_tokens');
  if (unknown.length > 0) throw new Error(`price has an unknown field ${unknown[0]}; ${shape}`);
  const read = (name: keyof LanguageModelPrice): number => {
    const n = fields[name];
    if (typeof n !== 'number' || !Number.isFinite(n)) throw new Error(`price.${name} must be a number of US dollars per million tokens; ${shape}`);
    if (n < 0 || n > MAX_PRICE_PER_MILLION) throw new Error(`price.${name} must be from 0 to ${MAX_PRICE_PER_MILLION} US dollars per million tokens, got ${n}`);
    return n;
  };
  return { input_per_million_tokens: read('input_per_million_tokens'), output_per_million_tokens: read('output_per_million_tokens') };
}

/** Whether actions at this price cost anything. */
export function isPriced(price: LanguageModelPrice | null): price is LanguageModelPrice {
  return price !== null && (price.input_per_million_tokens > 0 || price.output_per_million_tokens > 0);
}

/** Micro-dollars for these tokens (rounded once, up: never less than the endpoint bills). */
export function tokensMicro(price: LanguageModelPrice, promptTokens: number, completionTokens: number): number {
  return Math.ceil(promptTokens * price.input_per_million_tokens + completionTokens * price.output_per_million_tokens);
}

/** The worst case of one request: its estimated prompt and the most it may answer. */
export function requestMicro(price: LanguageModelPrice, system: string, user: string, maxTokens: number): number {
  return tokensMicro(price, estimateTokens(system) + estimateTokens(user) + PROMPT_RESERVE_TOKENS / 4, maxTokens);
}

/**
 * The most an action on these transcript lines may cost: every part asked with its prompt and `max_tokens`, then
 * the combining rounds (each at most a full part's budget of answers in, `max_tokens` out) — as ai-map-reduce.ts
 * asks them. A context-length refusal split in two can cost a little more; the run's check before each request
 * covers that.
 */
export function estimateActionMicro(price: LanguageModelPrice, request: AiRequest, lines: readonly string[], contextTokens: number): number {
  const budget = partBudget(request.action, contextTokens);
  const maxTokens = answerTokens(request.action, contextTokens);
  const parts = splitLines(lines, budget);
  let micro = 0;
  parts.forEach((part, i) => (micro += requestMicro(price, mapPrompt(request, i, parts.length), part.join('\n'), maxTokens)));
  const reduce = reducePrompt(request);
  if (reduce && parts.length > 1) {
    // Each round combines groups of answers that fit the budget: at most parts − 1 requests in all.
    const inputTokens = Math.min(budget, parts.length * maxTokens);
    micro += (parts.length - 1) * tokensMicro(price, estimateTokens(reduce) + inputTokens + PROMPT_RESERVE_TOKENS / 4, maxTokens);
  }
  return micro;
}

/**
 * The monthly cap's answer for `micro` more of hosted spending now (`what` names it: "this AI action's estimate"):
 * null when it fits, else why not, in words that say how much is left and what to do.
 */
export function capRefusal(store: Store, cap: SpendingCap, micro: number, what: string): Promise<string | null> {
  return store.tx(async ({ repos }) => {
    if ((await cap.checkLive(repos, micro)) === null) return null;
    const status = await cap.status(repos);
    const left = toMicro(status.remaining_usd ?? 0);
    return `The monthly cap for hosted work (${usdText(toMicro(status.monthly_usd ?? 0))}) has ${usdText(left)} left in ${status.month}, less than ${what} (${usdText(micro)}). Raise the cap on the Usage page (PUT /v1/settings/budget), or use a local endpoint without a price.`;
  });
}

/** The 402 a POST answers when the cap cannot take the action's estimate: nothing is created. */
export function budgetRefused(why: string): ApiError {
  return new ApiError('budget_exceeded', why);
}

/** What a run of a priced action needs to keep within its reservation and be charged once. */
export interface ActionMeterOptions {
  store: Store;
  cap: SpendingCap;
  price: LanguageModelPrice;
  jobId: string;
  accountId: string;
  /** What the job engine reserved for the job when it claimed it (0: nothing, e.g. a retried job). */
  reservedMicro: number;
  /** The answers kept by earlier runs of the job (paid already, charged with the rest). */
  kept: readonly { prompt_tokens: number; completion_tokens: number }[];
  /** `max_tokens` of each request. */
  maxTokens: number;
}

export interface ActionMeter {
  /** Before a request: throws JobError budget_exceeded when its worst case passes the reservation and the cap. */
  beforeRequest(system: string, user: string): Promise<void>;
  /** An answer arrived (its tokens as reported, or estimated). */
  paid(promptTokens: number, completionTokens: number): void;
  /** Micro-dollars of every answer the job has (kept ones too). */
  readonly costMicro: number;
}

export function createActionMeter(options: ActionMeterOptions): ActionMeter {
  const { price } = options;
  let cost = options.kept.reduce((sum, part) => sum + tokensMicro(price, part.prompt_tokens, part.completion_tokens), 0);
  return {
    async beforeRequest(system, user) {
      const worst = cost + requestMicro(price, system, user, options.maxTokens);
      if (worst <= options.reservedMicro) return;
      const why = await capRefusal(options.store, options.cap, worst - options.reservedMicro, "what this action's next request could cost past its reservation");
      if (why) throw new JobError('budget_exceeded', `${why} The answers received before this stop are charged.`);
    },
    paid(promptTokens, completionTokens) {
      cost += tokensMicro(price, promptTokens, completionTokens);
    },
    get costMicro() {
      return cost;
    },
  };
}

/**
 * Inside the caller's write transaction: the job's charge for its answers (ledger kind `usage`, provider `remote`:
 * it counts in the monthly cap and GET /v1/usage). The ledger takes one usage charge per job: a second run's is a
 * no-op, so a job is charged once however many runs it took.
 */
export async function chargeAction(repos: Pick<StoreRepos, 'ledger'>, job: { id: string; accountId: string }, micro: number, at: string): Promise<void> {
  if (micro <= 0) return;
  await repos.ledger.charge({
    account_id: job.accountId,
    job_id: job.id,
    batch_id: null,
    model_id: AI_MODEL_ID,
    product: TRANSCRIPT_AI,
    provider: 'remote',
    kind: 'usage',
    option_name: '',
    seconds: 0,
    amount_usd_micro: micro,
    created_at: at,
  });
}
