/** The words next to a button that starts paid work (src-renderer/src/shared/money/cost-text.ts). */
import { describe, expect, it } from 'vitest';
import type { BudgetSettings, Quote } from '../../../../../src-main/common/api-types.js';
import { formatMoney } from '../../../../../src-renderer/src/shared/format.js';
import { costText, parseCapInput } from '../../../../../src-renderer/src/shared/money/cost-text.js';

describe('money words and series', () => {
  const budget = (patch: Partial<BudgetSettings>): BudgetSettings => ({
    monthly_usd: 0.12, currency: 'USD', month: '2026-06', period_start: '2026-06-01T00:00:00.000Z', resets_at: '2026-07-01T00:00:00.000Z',
    spent_usd: 0.1, reserved_usd: 0, remaining_usd: 0.02, waiting: 0, ...patch,
  });
  const quote = (total: number): Quote => ({ model_id: 'm', seconds: 0, request_fee_usd: total, usage_usd: 0, options_usd: 0, total_usd: total, currency: 'USD' });

  it('shows the price, what is left of the cap for hosted work, and whether it would wait', () => {
    expect(costText(quote(0.05), budget({}), true)).toEqual({ price: '≈ $0.05', budget: '$0.02 left of $0.12 this month', overCap: true });
    expect(costText(quote(0.02), budget({}), true).overCap).toBe(false);
    expect(costText(quote(0.05), budget({ monthly_usd: null, remaining_usd: null }), true)).toMatchObject({ budget: 'No monthly cap for hosted work', overCap: false });
    expect(costText(quote(0), budget({}), false)).toEqual({ price: 'Free', budget: null, overCap: false });
    expect(costText(null, null, true)).toEqual({ price: null, budget: null, overCap: false });
    expect([0, 0.12, 0.0511, 0.000125, 12.5].map(formatMoney)).toEqual(['$0.00', '$0.12', '$0.0511', '$0.000125', '$12.50']);
  });

  it('reads a typed cap, refusing what is not an amount of dollars', () => {
    expect(parseCapInput('12.50')).toEqual({ usd: 12.5 });
    expect(parseCapInput(' $5 ')).toEqual({ usd: 5 });
    expect(parseCapInput('0')).toEqual({ usd: 0 });
    expect(parseCapInput('')).toEqual({ usd: null });
    expect(parseCapInput('-3')).toHaveProperty('error');
    expect(parseCapInput('ten')).toHaveProperty('error');
    expect(parseCapInput('1e3')).toHaveProperty('error');
  });
});
