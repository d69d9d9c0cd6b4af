/**
 * The monthly cap on hosted spending as the page sees it (src-renderer/src/shared/money/spending-budget.svelte.ts)
 * against a real service with the page's AppState as host.
 */
import { describe, expect, it } from 'vitest';
import { SpendingBudget } from '../../../../../src-renderer/src/shared/money/spending-budget.svelte.js';
import { useConnectedApp } from '../../../../helpers/renderer-host.js';

const ctx = useConnectedApp({ workers: 1 });

describe('SpendingBudget', () => {
  it('reads the cap, sets it, removes it, and says the service\'s sentence for a refusal', async () => {
    const budget = new SpendingBudget(ctx.app);
    await budget.refresh();
    expect(budget.status).toMatchObject({ monthly_usd: null, remaining_usd: null, waiting: 0 });
    expect(await budget.setCap(0.12)).toBe(true);
    expect(budget.status).toMatchObject({ monthly_usd: 0.12, remaining_usd: 0.12 });
    expect(await budget.setCap(-1)).toBe(false);
    expect(budget.error).toMatch(/monthly_usd must not be negative/);
    expect(await budget.setCap(null)).toBe(true);
    expect(budget.status?.monthly_usd).toBeNull();
    expect(budget.error).toBeNull();
  });

  it('is the local account\'s: another account is told so', async () => {
    const { ApiClient } = await import('../../../../../src-main/common/api-client.js');
    const other = new SpendingBudget({ api: new ApiClient({ baseUrl: ctx.svc.url, apiKey: (await ctx.svc.service.keys.createKey('guest')) }) });
    await other.refresh();
    expect(other.status).toBeNull();
    expect(other.unavailable).toMatch(/account of this computer/);
  });
});
