/**
 * axe-core in the page under test: its script is evaluated through the DevTools protocol (the page's CSP, which the
 * tests check, allows no injected <script>), then `axe.run` checks what is on screen. Only serious and critical
 * violations fail a test; the rest are returned for the message.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary: string }[];
}

/** Serious and critical violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations as { id: string; impact: string | null; help: string; nodes: { target: string[]; failureSummary: string }[] }[];
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
}

/** A readable list of violations for an assertion message. */
export function describeViolations(where: string, violations: readonly AxeViolation[]): string {
  return violations
    .map((v) => `${where}: ${v.impact} ${v.id} (${v.help})\n${v.nodes.map((n) => `  ${n.target.join(' ')}: ${n.failureSummary.replace(/\n/g, ' ')}`).join('\n')}`)
    .join('\n');
}
