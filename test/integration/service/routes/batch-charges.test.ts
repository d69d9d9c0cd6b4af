/**
 * Issue 32, point 4: a batch's usage is rounded once, on its total. With items of 1.004 s at $0.006 a minute each
 * item is worth 100.4 micro-dollars: rounded one by one, 50 items would cost $0.005000; the batch's total is
 * $0.005020. The quote for the batch's seconds, the ledger's rows and GET /v1/usage must all say $0.005020 (plus the
 * one request fee), whatever order the items finish in. Everything is read over real HTTP as a client would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch, Quote } from '../../../../src-main/common/api-types.js';
import { ledgerFor } from '../../../../src-main/store/ledger-repo.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { audio, Client, json } from '../../../helpers/http-client.js';
import { scaled } from '../../../helpers/time-scale.js';

let t: TestService;
let api: Client;
beforeAll(async () => {
  t = await startTestService({ workers: 2 });
  api = new Client(t.url, t.key);
});
afterAll(async () => {
  await t?.stop();
});

interface UsageBody {
  total_usd: number;
  request_fees_usd: number;
  usage_usd: number;
  seconds: number;
}

describe('a 50-item batch whose per-item rounding would differ', () => {
  it('is charged its total rounded once: the quote, the ledger and GET /v1/usage agree', async () => {
    const parts = [
      { name: 'model', value: 'test-asr' },
      { name: 'params', value: JSON.stringify({ seconds: 1.004 }) },
      ...Array.from({ length: 50 }, (_, i) => ({ name: 'file', file: { name: `item-${i}.wav`, data: audio(2000) } })),
    ];
    const created = await json<{ id: string }>(api.postForm('/v1/speech-to-text/batch', parts));
    let batch: Batch;
    for (;;) {
      batch = await json<Batch>(api.get(`/v1/speech-to-text/batch/${created.id}`));
      if (batch.status === 'complete') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(batch.succeeded).toBe(50);

    const quote = await json<Quote>(api.get('/v1/models/test-asr/quote?seconds=50.2'));
    expect(quote).toMatchObject({ seconds: 50.2, request_fee_usd: 0.05, usage_usd: 0.00502, total_usd: 0.05502 });

    const rows = ledgerFor(t.service.db, (await t.service.keys.find(t.key))!.accountId).filter((r) => r.batch_id === created.id);
    const usageRows = rows.filter((r) => r.kind === 'usage');
    expect(usageRows).toHaveLength(50);
    expect(usageRows.reduce((sum, r) => sum + r.amount_usd_micro, 0)).toBe(5020);
    expect(rows.filter((r) => r.kind === 'request_fee').map((r) => r.amount_usd_micro)).toEqual([50_000]);
    // Rounded item by item the same rows would have come to 50 × 100 = 5,000 micro-dollars.
    expect(usageRows.every((r) => r.amount_usd_micro === 100 || r.amount_usd_micro === 101)).toBe(true);

    const usage = await json<UsageBody>(api.get('/v1/usage'));
    expect(usage).toMatchObject({ total_usd: 0.05502, request_fees_usd: 0.05, usage_usd: 0.00502, seconds: 50.2 });
  }, scaled(120_000));
});
