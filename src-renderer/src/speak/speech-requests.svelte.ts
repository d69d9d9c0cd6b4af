/**
 * The Speak tab's work, apart from its view: one request at a time, a single text (answered at once with its queued
 * job, which the poller then follows) or a batch of lines, and Cancel, which stops the job or the open batch on the
 * service — named by its id, so nothing else sent with the same words is touched.
 */
import type { Batch, Job } from '$common/api-types.js';
import { describeError, errorText } from '../shared/error-messages.js';
import { t } from '../shared/i18n/i18n.svelte.js';
import type { ServiceHost } from '../shared/service/service-host.js';

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
  /** The request is on its way to the service (a moment: the service answers before the work is done). */
  #sending = $state(false);
  /** Cancel was pressed while sending: what the answer names is cancelled as soon as it arrives. */
  #cancelOnAnswer = false;
  /** Why the last request failed (its code and the service's words), or null. */
  #problem = $state.raw<{ code: string | null; message: string | null } | null>(null);
  /** The single job as the POST answered it. */
  #job = $state<Job | null>(null);
  /** The product of the single job (text-to-speech, or voice-cloning for a saved cloned voice). */
  #product: 'text-to-speech' | 'voice-cloning' = 'text-to-speech';
  /** The batch of the last batch request. */
  batchId = $state<string | null>(null);

  constructor(private readonly host: ServiceHost) {}

  /** The single job as it stands now: the poller's copy once it has one, else the POST's answer. */
  get current(): Job | null {
    return this.#job ? (this.host.jobById(this.#job.id) ?? this.#job) : null;
  }

  /** A request is being sent, or its single job is queued or running: Speak waits and Cancel stops it. */
  get busy(): boolean {
    const job = this.current;
    return this.#sending || (job !== null && (job.status === 'queued' || job.status === 'running'));
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
    this.#sending = true;
    this.#cancelOnAnswer = false;
    try {
      if (request.lines) {
        const created = await this.host.api.speakBatch({
          model: request.modelId,
          params: request.params,
          items: request.lines.map((line, i) => ({ text: line, name: t('speak.lineName', { number: i + 1 }) })),
        });
        this.host.upsertBatch(created);
        this.batchId = created.id;
        this.#job = null;
      } else {
        this.batchId = null;
        this.#job = null;
        const name = request.text.slice(0, NAME_CHARS);
        this.#product = request.voiceId ? 'voice-cloning' : 'text-to-speech';
        const created = request.voiceId
          ? await this.host.api.speakInSavedVoice({ model: request.modelId, voiceId: request.voiceId, text: request.text, params: request.params, name }, { wait: false })
          : await this.host.api.speak({ model: request.modelId, text: request.text, params: request.params, name }, { wait: false });
        this.host.upsertJob(created);
        this.#job = created;
      }
      this.host.refreshSoon();
    } catch (err) {
      const e = err as { code?: string; message?: string };
      this.#problem = { code: e.code ?? null, message: e.message ?? null };
    } finally {
      this.#sending = false;
    }
    if (this.#cancelOnAnswer) await this.#stop();
  }

  /** Stops what runs: the single job or the open batch (once the service has answered with it). */
  cancel(): void {
    if (this.#sending) this.#cancelOnAnswer = true;
    else void this.#stop();
  }

  async #stop(): Promise<void> {
    try {
      const job = this.current;
      if (job && (job.status === 'queued' || job.status === 'running')) this.host.upsertJob(await this.host.api.cancelJob(this.#product, job.id));
      const batchId = this.batchId;
      if (batchId && this.batch?.status === 'open') this.host.upsertBatch(await this.host.api.cancelBatch('text-to-speech', batchId));
    } catch (err) {
      this.host.toast(errorText(err), 'error');
    }
  }
}
