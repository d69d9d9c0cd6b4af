/**
 * The Speak tab's work, apart from its view: one request at a time, a single text (its held POST answers with the
 * finished job, or with the job still running, which the poller then follows) or a batch of lines, and Cancel, which
 * also stops the job on the service when the held POST has not answered yet (found by name and send time).
 */
import type { Batch, Job } from '$common/api-types.js';
import { describeError, errorText } from '../shared/error-messages.js';
import { t } from '../shared/i18n/i18n.svelte.js';
import type { ServiceHost } from '../shared/service/service-host.js';
import { matchJob } from '../transcribe/upload-plan.js';

export interface SpeechRequest {
  modelId: string;
  text: string;
  params: Record<string, unknown>;
  /** One item per line (batch mode), or null for the single route. */
  lines: readonly string[] | null;
  /** A cloned voice the account saved: the text is spoken through voice-cloning in that voice (single texts only). */
  voiceId?: string | null;
}

/** How many characters of the text name a single job. */
const NAME_CHARS = 60;

export class SpeechRequests {
  busy = $state(false);
  /** Why the last request failed (its code and the service's words), or null. */
  #problem = $state.raw<{ code: string | null; message: string | null } | null>(null);
  /** The single job as the POST answered it. */
  #job = $state<Job | null>(null);
  /** The product of the single job (text-to-speech, or voice-cloning for a saved cloned voice). */
  #product: 'text-to-speech' | 'voice-cloning' = 'text-to-speech';
  /** The batch of the last batch request. */
  batchId = $state<string | null>(null);
  #controller: AbortController | null = null;
  /**
   * The held POST in flight: its name and send time find its job before the POST answers — to show it (a job waiting
   * for the monthly budget, or for the network, is held up to the hold window) and to cancel it.
   */
  #inFlight = $state<{ name: string; sentAt: number } | null>(null);

  constructor(private readonly host: ServiceHost) {}

  /**
   * The job as it stands now: the poller's copy once it has one (a held POST may answer while it still runs), or
   * while the held POST has not answered, the polled job it created.
   */
  get current(): Job | null {
    if (this.#job) return this.host.jobById(this.#job.id) ?? this.#job;
    const pending = this.#inFlight;
    return pending ? (matchJob(this.host.jobs, pending.name, pending.sentAt) ?? null) : null;
  }

  /** The last request's failure in plain words, in the interface's language; null when it did not fail. */
  get error(): string | null {
    return this.#problem ? describeError(this.#problem.code, this.#problem.message) : null;
  }

  get batch(): Batch | undefined {
    return this.host.batchById(this.batchId);
  }

  async submit(request: SpeechRequest): Promise<void> {
    if (this.busy) return;
    if (!request.text.trim()) {
      this.#problem = { code: 'text_required', message: null };
      return;
    }
    this.#problem = null;
    this.busy = true;
    const controller = (this.#controller = new AbortController());
    try {
      if (request.lines) {
        const created = await this.host.api.speakBatch(
          { model: request.modelId, params: request.params, items: request.lines.map((line, i) => ({ text: line, name: t('speak.lineName', { number: i + 1 }) })) },
          { signal: controller.signal },
        );
        this.host.upsertBatch(created);
        this.batchId = created.id;
        this.#job = null;
      } else {
        this.batchId = null;
        this.#job = null;
        const name = request.text.slice(0, NAME_CHARS);
        this.#inFlight = { name, sentAt: Date.now() };
        this.#product = request.voiceId ? 'voice-cloning' : 'text-to-speech';
        const created = request.voiceId
          ? await this.host.api.speakInSavedVoice({ model: request.modelId, voiceId: request.voiceId, text: request.text, params: request.params, name }, { signal: controller.signal })
          : await this.host.api.speak({ model: request.modelId, text: request.text, params: request.params, name }, { signal: controller.signal });
        this.host.upsertJob(created);
        this.#job = created;
      }
      this.host.refreshSoon();
    } catch (err) {
      const e = err as { name?: string; code?: string; message?: string };
      this.#problem = e.name === 'AbortError' ? null : { code: e.code ?? null, message: e.message ?? null };
    } finally {
      this.busy = false;
      this.#controller = null;
      this.#inFlight = null;
    }
  }

  /** Stops what runs: the held POST and its job, or the open batch. */
  cancel(): void {
    if (this.#inFlight) void this.#cancelInFlight(this.#inFlight);
    this.#controller?.abort();
    const batchId = this.batchId;
    if (batchId && this.batch?.status === 'open') {
      void this.host.api.cancelBatch('text-to-speech', batchId).then((b) => this.host.upsertBatch(b), (err: unknown) => this.host.toast(errorText(err), 'error'));
    }
  }

  /** Aborting the held POST does not stop the job on the service: find it and cancel it there too. */
  async #cancelInFlight(pending: { name: string; sentAt: number }): Promise<void> {
    try {
      const product = this.#product;
      const { data } = await this.host.api.listJobs({ product, limit: 20 });
      const job = matchJob(data, pending.name, pending.sentAt);
      if (job && (job.status === 'queued' || job.status === 'running')) this.host.upsertJob(await this.host.api.cancelJob(product, job.id));
    } catch (err) {
      this.host.toast(errorText(err), 'error');
    }
  }
}
