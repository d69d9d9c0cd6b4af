/**
 * What every browser test starts from once `voxdesk serve --ui` runs: Debian's Chromium, and a page logged in from
 * the address the service printed (as a person's browser would be), showing its tabs. Errors thrown in the page are
 * collected into `pageErrors`, so a test can assert that there were none.
 */
import type { Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import type { ServedUi } from './serve-ui.js';

export type Chromium = Awaited<ReturnType<typeof launchChromium>>;

export interface LoggedInPageOptions {
  /** Extra Chromium flags (e.g. a fake microphone). */
  chromiumArgs?: string[];
  /** Runs on the new page before it opens the login address (listeners that must see the first load). */
  beforeLogin?: (page: Page) => void;
}

export async function openLoggedInPage(served: ServedUi, pageErrors: string[], options: LoggedInPageOptions = {}): Promise<{ browser: Chromium; page: Page }> {
  const browser = await launchChromium(options.chromiumArgs);
  const page = await browser.context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  options.beforeLogin?.(page);
  await page.goto(served.loginUrl);
  await page.getByRole('tab', { name: /Transcribe/ }).waitFor();
  return { browser, page };
}
