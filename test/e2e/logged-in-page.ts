/**
 * What every browser test starts from once `voxdesk serve --ui` runs: Debian's Chromium, and a page logged in from
 * the address the service printed (as a person's browser would be), showing its tabs. A new data dir greets with the
 * welcome screen first: the page takes its "use PocketSphinx for now" (or "skip") unless `keepWelcome` is set. Errors
 * thrown in the page are collected into `pageErrors`, so a test can assert that there were none.
 */
import type { Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import type { ServedUi } from './serve-ui.js';

export type Chromium = Awaited<ReturnType<typeof launchChromium>>;

export interface LoggedInPageOptions {
  /** Extra Chromium flags (e.g. a fake microphone). */
  chromiumArgs?: string[];
  /** An X display to run Chromium with a window on (launchChromium). */
  display?: string;
  /** Runs on the new page before it opens the login address (listeners that must see the first load). */
  beforeLogin?: (page: Page) => void;
  /** Leave the welcome screen of a new data dir open (the first-start test). */
  keepWelcome?: boolean;
  /** The browser's language (navigator.languages): the interface follows it. Default en-US. */
  locale?: string;
}

/** Waits for the tabs, taking the welcome screen's way past it when a new data dir shows it. */
export async function pastWelcome(page: Page): Promise<void> {
  const tabs = page.getByRole('tab').first();
  await tabs.or(page.getByTestId('welcome')).first().waitFor();
  if (await page.getByTestId('welcome').isVisible()) await page.getByTestId('welcome-later').click();
  await tabs.waitFor();
}

export async function openLoggedInPage(served: Pick<ServedUi, 'loginUrl'>, pageErrors: string[], options: LoggedInPageOptions = {}): Promise<{ browser: Chromium; page: Page }> {
  const browser = await launchChromium(options.chromiumArgs, { locale: options.locale, display: options.display });
  const page = await browser.context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  options.beforeLogin?.(page);
  await page.goto(served.loginUrl);
  if (options.keepWelcome) await page.getByTestId('welcome').or(page.getByRole('tab').first()).first().waitFor();
  else await pastWelcome(page);
  return { browser, page };
}
