/**
 * The monthly cap on hosted spending as the page sees it (GET/PUT /v1/settings/budget): what is left this month,
 * shown next to every button that starts hosted work, and the cap's editor on the Usage page. Read at start, after
 * the cap changes, and whenever the polled jobs and batches show hosted work moving (so "left" follows the charges
 * and a job waiting for the budget is noticed); written against the page's ServiceHost.
 */
import type { Batch, BudgetSettings, Job } from '$common/api-types.js';
import { errorDetail, errorText } from '../error-messages.js';
import { t } from '../i18n/i18n.svelte.js';
import { contextKey } from '../context.js';
import type { ServiceHost } from '../service/service-host.js';

export class SpendingBudget {
  status = $state.raw<BudgetSettings | null>(null);
  /** Why the budget cannot be read: it belongs to this computer's own account ('local_only'), or what failed. */
  #unreadable = $state.raw<unknown>(null);
  saving = $state(false);
  /** The last save's refusal. */
  #refusal = $state.raw<unknown>(null);
  #signature = '';
  #loading: Promise<void> | null = null;

  constructor(private readonly host: Pick<ServiceHost, 'api'>) {}

  /** Why the budget cannot be read, in words in the interface's language, or null. */
  get unavailable(): string | null {
    if (!this.#unreadable) return null;
    return this.#unreadable === 'local_only' ? t('money.belongsToLocal') : errorText(this.#unreadable);
  }

  /** The last save's refusal in words (the service's sentence names the field), or null. */
  get error(): string | null {
    return this.#refusal ? errorDetail(this.#refusal) : null;
  }

  /** Hosted jobs and pending items waiting for the budget. */
  get waiting(): number {
    return this.status?.waiting ?? 0;
  }

  refresh(): Promise<void> {
    this.#loading ??= this.host.api
      .getBudget()
      .then(
        (status) => {
          this.status = status;
          this.#unreadable = null;
        },
        (err: { status?: number }) => {
          this.#unreadable = err.status === 404 ? 'local_only' : err;
        },
      )
      .finally(() => (this.#loading = null));
    return this.#loading;
  }

  /** Sets the cap (dollars; null: none); true when saved. Work the cap held starts at once as far as it allows. */
  async setCap(usd: number | null): Promise<boolean> {
    this.saving = true;
    this.#refusal = null;
    try {
      this.status = await this.host.api.putBudget({ monthly_usd: usd });
      return true;
    } catch (err) {
      this.#refusal = err;
      return false;
    } finally {
      this.saving = false;
    }
  }

  /** Called with each polled list: reads the budget again when hosted work changed (started, finished, waits). */
  notice(jobs: readonly Job[], batches: readonly Batch[]): void {
    const hosted = (model: string): boolean => model.startsWith('remote:');
    const signature = [
      ...jobs.filter((j) => hosted(j.model_id)).map((j) => `${j.id}:${j.status}:${j.error_code ?? ''}`),
      ...batches.filter((b) => hosted(b.model_id)).map((b) => `${b.id}:${b.status}:${b.remaining}:${b.files[0]?.error_code ?? ''}`),
    ].join('|');
    if (signature === this.#signature) return;
    this.#signature = signature;
    void this.refresh();
  }
}

/** The monthly cap, shared by every tab that starts hosted work and the Usage page; provided through context. */
export const BUDGET = contextKey<SpendingBudget>('monthly budget');
