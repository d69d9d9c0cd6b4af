/**
 * UI benchmark: time from launching `voxdesk serve --ui` to the first usable screen in Chromium (tabs drawn,
 * catalogue loaded, status "Ready"). Chromium is started first so its own launch is not counted. Prints one JSON
 * line. Usage: node --import tsx bench/ui-startup.ts [runs=3]
 */
import { launchChromium } from '../test/e2e/chromium.js';
import { startServeUi } from '../test/e2e/serve-ui.js';

const runs = Number(process.argv[2] ?? 3);
const serveMs: number[] = [];
const usableMs: number[] = [];
const browser = await launchChromium();
try {
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const served = await startServeUi();
    serveMs.push(served.startupMs);
    try {
      const page = await browser.context.newPage();
      await page.goto(served.loginUrl);
      await page.locator('.status', { hasText: 'Ready' }).waitFor({ timeout: 60_000 });
      await page.locator('#asr-model').waitFor({ timeout: 60_000 });
      usableMs.push(performance.now() - t0);
      await page.close();
    } finally {
      await served.stop();
    }
  }
} finally {
  await browser.close();
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(JSON.stringify({
  bench: 'ui-startup',
  runs,
  serve_first_line_ms_median: Math.round(median(serveMs)),
  first_usable_screen_ms_median: Math.round(median(usableMs)),
  first_usable_screen_ms: usableMs.map(Math.round),
}));
