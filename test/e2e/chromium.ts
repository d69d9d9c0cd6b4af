/** Debian's Chromium through playwright-core, with the flags of docs/design.md §7 and a fresh profile. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { requireFile } from '../helpers/system.js';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Web Audio must start without a click in headless tests.
  '--autoplay-policy=no-user-gesture-required',
];

/**
 * A fake microphone playing `file` once, or over and over with `loop` (docs/design.md §7): getUserMedia gets "Fake
 * Default Audio Input" without a prompt. The page must be on http://127.0.0.1 (a secure context).
 */
export function fakeMicrophoneFlags(file: string, options: { loop?: boolean } = {}): string[] {
  return ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-audio-capture=${file}${options.loop ? '' : '%noloop'}`];
}

/**
 * `locale`: the browser's language (navigator.languages, Accept-Language). Default en-US. `display`: run with a
 * window on this X display (test/helpers/xvfb.ts) instead of headless — a tab's sound reaches a screen share only then.
 */
export async function launchChromium(extraArgs: string[] = [], options: { locale?: string | undefined; display?: string | undefined } = {}): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  requireFile(CHROMIUM, 'chromium');
  const profile = mkdtempSync(join(tmpdir(), 'voxdesk-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: !options.display,
    ...(options.display ? { env: { ...process.env, DISPLAY: options.display } } : {}),
    args: [...CHROMIUM_FLAGS, ...extraArgs],
    acceptDownloads: true,
    viewport: { width: 1280, height: 860 },
    locale: options.locale ?? 'en-US',
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
