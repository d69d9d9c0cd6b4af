/**
 * The AI panel's work, apart from its view (docs/ai-actions.md): whether the account has a language model set up,
 * the transcript's finished actions, and one action at a time started and followed. An action is started with
 * `?wait=false` (the service answers with its queued job at once) and then polled every 400 ms through
 * `GET …/ai/{job}`, which carries the answer streamed so far (`partial_text`): polling, not a stream, because the
 * panel must also survive the page being reloaded mid-action — the job keeps running in the service and a poll picks
 * it up again — and a poll costs the service one read.
 */
import type { AiActionName, LanguageModelSettingsInfo } from '$common/ai-types.js';
import { ApiClientError } from '$common/api-client.js';
import type { Job } from '$common/api-types.js';
import { isTerminal } from '$common/job-states.js';
import { errorText } from '../../shared/error-messages.js';
import type { ServiceHost } from '../../shared/service/service-host.js';

/** How often a running action is read again. */
export const AI_POLL_MS = 400;

export type AiPanelState = 'loading' | 'not_configured' | 'not_offered' | 'ready';

export class AiPanel {
  state = $state<AiPanelState>('loading');
  settings = $state.raw<LanguageModelSettingsInfo | null>(null);
  /** Finished actions, newest first. */
  results = $state.raw<Job[]>([]);
  /** The action under way, and the text streamed so far. */
  running = $state.raw<Job | null>(null);
  partial = $state('');
  /** Why the last action or read failed, in words (null: nothing failed). */
  problem = $state<string | null>(null);
  /** The error code of that failure (language_model_unreachable gets its own hint). */
  problemCode = $state<string | null>(null);
  #timer: ReturnType<typeof setTimeout> | null = null;
  #stopped = false;

  constructor(
    private readonly host: ServiceHost,
    private readonly jobId: string,
    /** Called when a clean-up made a new revision (the editor loads it). */
    private readonly onRevision: () => void,
  ) {}

  async load(): Promise<void> {
    try {
      this.settings = await this.host.api.getLanguageModelSettings();
      this.state = this.settings.configured ? 'ready' : 'not_configured';
    } catch (err) {
      // Another account of a shared service has no settings route: actions still run if the owner set one.
      this.state = err instanceof ApiClientError && err.status === 404 ? 'not_offered' : 'ready';
    }
    try {
      this.results = (await this.host.api.listAiActions(this.jobId)).data;
    } catch (err) {
      this.problem = errorText(err);
    }
  }

  async start(action: AiActionName, extra: { language?: string; question?: string } = {}): Promise<void> {
    if (this.running) return;
    this.problem = null;
    this.problemCode = null;
    this.partial = '';
    try {
      const job = await this.host.api.startAiAction(this.jobId, { action, ...extra });
      this.running = job;
      this.host.upsertJob(job);
      this.#follow(job.id);
    } catch (err) {
      this.#fail(err instanceof ApiClientError ? err.code : null, errorText(err));
      if (err instanceof ApiClientError && err.code === 'language_model_not_configured') this.state = 'not_configured';
    }
  }

  async cancel(): Promise<void> {
    const job = this.running;
    if (!job) return;
    try {
      await this.host.api.cancelJob('transcript-ai', job.id);
    } catch (err) {
      this.host.toast(errorText(err), 'error');
    }
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
  }

  #follow(aiJobId: string): void {
    const poll = async (): Promise<void> => {
      if (this.#stopped) return;
      try {
        const progress = await this.host.api.getAiAction(this.jobId, aiJobId);
        if (progress.partial_text !== null) this.partial = progress.partial_text;
        this.running = progress.job;
        if (isTerminal(progress.job.status)) return this.#finished(progress.job);
      } catch (err) {
        this.problem = errorText(err);
      }
      this.#timer = setTimeout(() => void poll(), AI_POLL_MS);
    };
    void poll();
  }

  #finished(job: Job): void {
    this.running = null;
    this.partial = '';
    this.host.upsertJob(job);
    if (job.status === 'succeeded') {
      this.results = [job, ...this.results.filter((r) => r.id !== job.id)];
      if (job.result?.ai?.action === 'clean_up' && job.result.ai.revision !== job.result.ai.base_revision) this.onRevision();
    } else if (job.status === 'failed') {
      this.#fail(job.error_code, job.error_message ?? job.error_code ?? job.status);
    }
  }

  #fail(code: string | null, message: string): void {
    this.problemCode = code;
    this.problem = message;
  }
}

/** A result's text cut into plain pieces and cited times (`[mm:ss]`), the latter with where to seek. */
export function citedPieces(job: Job): ({ text: string } | { time: string; seconds: number })[] {
  const text = job.result?.text ?? '';
  const times: Record<string, number> = Object.fromEntries((job.result?.ai?.citations ?? []).map((c) => [c.time, c.seconds]));
  const pieces: ({ text: string } | { time: string; seconds: number })[] = [];
  let last = 0;
  for (const match of text.matchAll(/\[(\d{2,3}:\d{2})\]/g)) {
    const seconds = times[match[1]!];
    if (seconds === undefined) continue;
    if (match.index > last) pieces.push({ text: text.slice(last, match.index) });
    pieces.push({ time: match[1]!, seconds });
    last = match.index + match[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last) });
  return pieces;
}
