/**
 * The Usage page's work, apart from its view: the period chosen, the two reports it shows (by day for the chart,
 * by model for the totals) read from GET /v1/usage, and the CSV download built from them. Written against the
 * page's ServiceHost.
 */
import type { UsageReport } from '$common/api-types.js';
import { saveBlob } from '../shared/download.js';
import { errorDetail } from '../shared/error-messages.js';
import { t } from '../shared/i18n/i18n.svelte.js';
import type { ServiceHost } from '../shared/service/service-host.js';
import { periodDays, usageCsv, type UsagePeriod } from './usage-range.js';

export class UsageView {
  period = $state<UsagePeriod>('this-month');
  /** The days of a custom period, `YYYY-MM-DD` (UTC), both taken in whole. */
  customFrom = $state('');
  customTo = $state('');
  byDay = $state.raw<UsageReport | null>(null);
  byModel = $state.raw<UsageReport | null>(null);
  loading = $state(false);
  /** Why the last load failed: a custom range without its days, or what the service said. */
  #problem = $state.raw<'no_days' | { failure: unknown } | null>(null);
  #asked = 0;

  constructor(
    private readonly host: Pick<ServiceHost, 'api'>,
    /** The clock the periods are counted from (tests pass their own). */
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a clock reading, never mutated or rendered
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Why the last load failed, in words in the interface's language (a bad custom range gets the service's sentence). */
  get error(): string | null {
    if (!this.#problem) return null;
    return this.#problem === 'no_days' ? t('usage.chooseDays') : errorDetail(this.#problem.failure);
  }

  /** The days asked for. */
  get days(): { from: string; to: string } {
    return periodDays(this.period, this.now(), { from: this.customFrom, to: this.customTo });
  }

  async load(): Promise<void> {
    const { from, to } = this.days;
    if (this.period === 'custom' && (!from || !to)) {
      this.#problem = 'no_days';
      return;
    }
    const asked = ++this.#asked;
    this.loading = true;
    try {
      const [byDay, byModel] = await Promise.all([
        this.host.api.usage({ from, to, group_by: 'day' }),
        this.host.api.usage({ from, to, group_by: 'model' }),
      ]);
      if (asked !== this.#asked) return;
      this.byDay = byDay;
      this.byModel = byModel;
      this.#problem = null;
    } catch (err) {
      if (asked !== this.#asked) return;
      this.#problem = { failure: err };
    } finally {
      if (asked === this.#asked) this.loading = false;
    }
  }

  /** The CSV of what is shown (per day, then per model). */
  csv(): string | null {
    return this.byDay ? usageCsv(this.byDay, this.byModel) : null;
  }

  download(): void {
    const csv = this.csv();
    if (!csv || !this.byDay) return;
    const { from, to } = this.days;
    saveBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), `voxdesk-usage-${from}-to-${to}.csv`);
  }
}
