/**
 * UI benchmark: the longest main-thread task in the page (PerformanceObserver 'longtask', ≥ 50 ms) while 50 files
 * are transcribed (PocketSphinx, ../shared/audio/hifitts-6097, one batch of 50 dropped on Transcribe) and the UI
 * polls and redraws their progress. Prints one JSON line. Usage: node --import tsx bench/ui-longtask.ts [files=50]
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED } from '../test/helpers/system.js';
import { launchChromium } from '../test/e2e/chromium.js';
import { startServeUi } from '../test/e2e/serve-ui.js';

const count = Number(process.argv[2] ?? 50);
const dir = join(SHARED, 'audio', 'hifitts-6097');
const wavs = readdirSync(dir).filter((f) => f.endsWith('.wav')).sort().slice(0, count).map((f) => join(dir, f));
while (wavs.length < count) wavs.push(wavs[wavs.length % 58]!);

const served = await startServeUi();
const browser = await launchChromium();
try {
  const page = await browser.context.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { __longtasks: number[] };
    w.__longtasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longtasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(served.loginUrl);
  const picker = page.locator('#asr-model');
  await picker.waitFor();
  const value = await picker.locator('option', { hasText: /PocketSphinx/i }).first().getAttribute('value');
  await picker.selectOption(value!);
  // Page load is not part of the measure: start counting from the drop.
  await page.evaluate(() => ((window as unknown as { __longtasks: number[] }).__longtasks = []));
  const t0 = performance.now();
  await page.locator('[data-testid="file-input"]').setInputFiles(wavs);
  await page.waitForFunction(
    (n) => document.querySelectorAll('#panel-transcribe .list [data-status="succeeded"], #panel-transcribe .list [data-status="failed"]').length >= n,
    count,
    { timeout: 30 * 60_000, polling: 1000 },
  );
  const wallS = (performance.now() - t0) / 1000;
  const tasks = await page.evaluate(() => (window as unknown as { __longtasks: number[] }).__longtasks);
  const failed = await page.locator('#panel-transcribe .list [data-status="failed"]').count();
  console.log(JSON.stringify({
    bench: 'ui-longtask',
    files: count,
    failed,
    wall_seconds: Math.round(wallS),
    longtasks: tasks.length,
    longest_task_ms: Math.round(Math.max(0, ...tasks)),
    total_longtask_ms: Math.round(tasks.reduce((a, b) => a + b, 0)),
  }));
} finally {
  await browser.close();
  await served.stop();
}
