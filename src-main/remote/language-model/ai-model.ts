/**
 * How language-model actions reach the job engine without a change to it: their jobs name the model
 * `language-model`, which the jobs' model lookup resolves (never the public catalogue: it is not a speech model a
 * client could pick) to a definition served by the engine's plug-in runner (`engine: 'remote'`, jobs/engine/
 * job-runner.ts). The runner switch sends those jobs to the AI runner and every other to the hosted forwarding runner,
 * so both go through the job engine's claim, lease, cancel, requeue and settle paths, and share the plug-in runner's
 * slots (the hosted runner's `concurrency`, default 4: hosted forwarding never runs more at once than before).
 * The price is zero: a local endpoint costs nothing, and tokens are recorded on the result (docs/ai-actions.md).
 */
import { NO_LIMITS, type ModelDefinition } from '../../engines/model-definition.js';
import { DEFAULT_RUNNER_CONCURRENCY, type JobRunner, type RunnerContext, type RunnerTask } from '../../jobs/engine/job-runner.js';

/** The model id of every language-model action's job. */
export const AI_MODEL_ID = 'language-model';

/** The job-side definition of AI actions (product `transcript-ai`). */
export const AI_MODEL_DEFINITION: ModelDefinition = Object.freeze({
  id: AI_MODEL_ID,
  name: 'Language model (your endpoint)',
  description: 'Summaries, action items, chapters, clean-up, translation and questions on a transcript, by the chat endpoint in Settings.',
  capability: 'asr',
  products: [],
  provider: 'remote',
  engine: 'remote',
  engineConfig: {},
  languages: [],
  live: false,
  acceptsSpeed: false,
  limits: NO_LIMITS,
  paramsSchema: { type: 'object' },
  pricing: { currency: 'USD', request_fee_usd: 0, per_minute_usd: 0, options: {} },
  status: 'available',
  reason: null,
  download: null,
}) as ModelDefinition;

/** The jobs' model lookup with the AI actions' model added. */
export function withAiModel(resolve: (id: string) => ModelDefinition | undefined): (id: string) => ModelDefinition | undefined {
  return (id) => (id === AI_MODEL_ID ? AI_MODEL_DEFINITION : resolve(id));
}

/** One plug-in runner for the job engine: AI actions to `ai`, everything else to `hosted`. */
export function runnerSwitch(hosted: JobRunner, ai: JobRunner): JobRunner {
  const isAi = (definition: ModelDefinition): boolean => definition.id === AI_MODEL_ID;
  const switched: JobRunner = {
    concurrency: hosted.concurrency ?? DEFAULT_RUNNER_CONCURRENCY,
    readiness: (definition, job) => (isAi(definition) ? null : (hosted.readiness?.(definition, job) ?? null)),
    run: (task: RunnerTask, ctx: RunnerContext) => (isAi(task.definition) ? ai.run(task, ctx) : hosted.run(task, ctx)),
  };
  if (hosted.placeBatch) switched.placeBatch = hosted.placeBatch.bind(hosted);
  return switched;
}
