/**
 * GET /v1/usage's answer from the ledger's sums (store/ledger-repo.ts usage): request fees, usage and options, the
 * part done on this device and the part a hosted service billed, in total and per group (day, model or product).
 * Every sum is made in whole micro-dollars and turned into dollars once, so `total_usd` is the ledger's own total to
 * the micro-dollar (`total_usd_micro` is that integer).
 */
import type { UsageAmounts, UsageGroup, UsageGroupBy, UsageReport } from '../../common/api-types.js';
import { fromMicro } from '../../common/pricing.js';
import type { UsageSum } from '../../store/ledger-repo.js';

/** The groups a report can be made by; the first is the default. */
export const USAGE_GROUPS: readonly UsageGroupBy[] = ['day', 'model', 'product'];

interface Tally {
  fees: number;
  usage: number;
  options: number;
  seconds: number;
  requests: number;
}

const empty = (): Tally => ({ fees: 0, usage: 0, options: 0, seconds: 0, requests: 0 });

function add(tally: Tally, sum: UsageSum): void {
  if (sum.kind === 'request_fee') {
    tally.fees += sum.amount_usd_micro;
    tally.requests += sum.rows;
  } else if (sum.kind === 'usage') {
    tally.usage += sum.amount_usd_micro;
    tally.seconds += sum.seconds;
  } else {
    tally.options += sum.amount_usd_micro;
  }
}

const totalOf = (t: Tally): number => t.fees + t.usage + t.options;

function amounts(t: Tally): UsageAmounts {
  return {
    total_usd: fromMicro(totalOf(t)),
    request_fees_usd: fromMicro(t.fees),
    usage_usd: fromMicro(t.usage),
    options_usd: fromMicro(t.options),
    // Seconds are stored to the millisecond (duration_seconds has 3 decimals): drop float noise from the sum.
    seconds: Math.round(t.seconds * 1000) / 1000,
    requests: t.requests,
  };
}

export function usageReport(sums: readonly UsageSum[], range: { from: Date; to: Date; groupBy: UsageGroupBy }): UsageReport {
  const all = empty();
  const byProvider = { local: empty(), remote: empty() };
  const groups = new Map<string, { all: Tally; local: number; remote: number }>();
  for (const sum of sums) {
    add(all, sum);
    add(byProvider[sum.provider], sum);
    let group = groups.get(sum.key);
    if (!group) groups.set(sum.key, (group = { all: empty(), local: 0, remote: 0 }));
    add(group.all, sum);
    group[sum.provider] += sum.amount_usd_micro;
  }
  const data: UsageGroup[] = [...groups.entries()].map(([key, g]) => ({
    key,
    ...amounts(g.all),
    on_device_usd: fromMicro(g.local),
    hosted_usd: fromMicro(g.remote),
  }));
  return {
    object: 'usage',
    currency: 'USD',
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    group_by: range.groupBy,
    ...amounts(all),
    total_usd_micro: totalOf(all),
    on_device: amounts(byProvider.local),
    hosted: amounts(byProvider.remote),
    data,
  };
}
