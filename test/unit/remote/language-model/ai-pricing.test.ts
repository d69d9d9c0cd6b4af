/**
 * The price of language-model actions (ai-pricing.ts): the settings' price checked field by field, tokens priced in
 * micro-dollars (USD per million tokens = micro-dollars per token, rounded up once), and an action's estimate — the
 * most its requests can cost — never below what the endpoint bills for the same requests answered in full.
 */
import { describe, expect, it } from 'vitest';
import { mapPrompt, reducePrompt } from '../../../../src-main/remote/language-model/ai-actions.js';
import { answerTokens, partBudget, splitLines } from '../../../../src-main/remote/language-model/ai-chunks.js';
import { estimateActionMicro, isPriced, parsePrice, tokensMicro } from '../../../../src-main/remote/language-model/ai-pricing.js';

const PRICE = { input_per_million_tokens: 2.5, output_per_million_tokens: 10 };

describe('the price of a language-model endpoint', () => {
  it('takes two non-negative numbers of USD per million tokens, or nothing', () => {
    expect(parsePrice(PRICE)).toEqual(PRICE);
    expect(parsePrice(null)).toBeNull();
    expect(parsePrice(undefined)).toBeNull();
    expect(parsePrice({ input_per_million_tokens: 0, output_per_million_tokens: 0 })).toEqual({ input_per_million_tokens: 0, output_per_million_tokens: 0 });
    expect(() => parsePrice({ input_per_million_tokens: -0.1, output_per_million_tokens: 1 })).toThrow(/input_per_million_tokens must be from 0/);
    expect(() => parsePrice({ input_per_million_tokens: 1, output_per_million_tokens: Number.NaN })).toThrow(/output_per_million_tokens must be a number/);
    expect(() => parsePrice({ input_per_million_tokens: 1, output_per_million_tokens: '1' })).toThrow(/must be a number/);
    expect(() => parsePrice({ input_per_million_tokens: 1 })).toThrow(/output_per_million_tokens/);
    expect(() => parsePrice({ input_per_million_tokens: 1, output_per_million_tokens: 1, per: 'k' })).toThrow(/unknown field per/);
    expect(() => parsePrice(3)).toThrow(/price must be/);
    expect(() => parsePrice([1, 2])).toThrow(/price must be/);
  });

  it('is a price only when a token costs something', () => {
    expect(isPriced(null)).toBe(false);
    expect(isPriced({ input_per_million_tokens: 0, output_per_million_tokens: 0 })).toBe(false);
    expect(isPriced({ input_per_million_tokens: 0, output_per_million_tokens: 0.01 })).toBe(true);
  });

  it('prices tokens in micro-dollars, rounded up once', () => {
    expect(tokensMicro(PRICE, 1000, 100)).toBe(3500);
    expect(tokensMicro({ input_per_million_tokens: 0.15, output_per_million_tokens: 0.6 }, 3, 1)).toBe(2); // 1.05 → 2
    expect(tokensMicro(PRICE, 0, 0)).toBe(0);
  });

  it("estimates at least what every request costs answered at its max_tokens, for one part and for many", () => {
    for (const count of [3, 600]) {
      const lines = Array.from({ length: count }, (_, i) => `[${String(Math.floor(i / 12)).padStart(2, '0')}:${String((i * 5) % 60).padStart(2, '0')}] line ${i} of the meeting about the budget`);
      const request = { action: 'summary' as const, language: null, question: null };
      const context = 4096;
      const parts = splitLines(lines, partBudget('summary', context));
      const maxTokens = answerTokens('summary', context);
      // What the endpoint would bill at characters / 4 for each map request answered in full, plus the combining.
      let billed = 0;
      parts.forEach((part, i) => (billed += tokensMicro(PRICE, Math.ceil((mapPrompt(request, i, parts.length).length + part.join('\n').length) / 4), maxTokens)));
      if (parts.length > 1) billed += tokensMicro(PRICE, Math.ceil(reducePrompt(request)!.length / 4), maxTokens);
      const estimate = estimateActionMicro(PRICE, request, lines, context);
      expect(estimate).toBeGreaterThanOrEqual(billed);
      if (count === 3) expect(parts).toHaveLength(1);
      else expect(parts.length).toBeGreaterThan(1);
    }
  });
});
