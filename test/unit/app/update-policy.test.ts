/** Updates (app/update-policy.ts): checked once at start when packaged, downloaded in the background, installed at quit. */
import { describe, expect, it } from 'vitest';
import type { UpdateBridgeEvent } from '../../../src-main/common/desktop-bridge.js';
import { UpdatePolicy } from '../../../src-main/app/update-policy.js';
import { FakeUpdater } from '../../helpers/fake-electron.js';
import { logInto } from '../../helpers/log.js';

function policy(packaged: boolean) {
  const updater = new FakeUpdater();
  const events: UpdateBridgeEvent[] = [];
  const logs: string[] = [];
  const updates = new UpdatePolicy({ updater, packaged, report: (e) => events.push(e), log: logInto(logs) });
  return { updater, events, logs, updates };
}

describe('UpdatePolicy', () => {
  it('downloads in the background and leaves the install to the quit', () => {
    const { updater } = policy(true);
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(false);
  });

  it('checks once at start in the packaged app, never in a checkout', () => {
    const packaged = policy(true);
    packaged.updates.checkAtStart();
    expect(packaged.updater.checks).toBe(1);
    const checkout = policy(false);
    checkout.updates.checkAtStart();
    expect(checkout.updater.checks).toBe(0);
  });

  it('reports the download to the page and installs at quit only once downloaded', () => {
    const { updater, events, updates } = policy(true);
    expect(updates.installIfReady()).toBe(false);
    updater.emit('update-available', { version: '1.2.0' });
    updater.emit('download-progress', { percent: 41.6 });
    expect(updates.installIfReady()).toBe(false);
    updater.emit('update-downloaded', { version: '1.2.0' });
    expect(events).toEqual([
      { state: 'downloading', version: '1.2.0', percent: 0 },
      { state: 'downloading', version: '1.2.0', percent: 42 },
      { state: 'ready', version: '1.2.0' },
    ]);
    expect(updates.installIfReady()).toBe(true);
    expect(updater.installs).toEqual([{ silent: true, runAfter: false }]);
  });

  it('says what failed and goes on', async () => {
    const { updater, events, logs, updates } = policy(true);
    updater.checkForUpdates = async () => {
      throw new Error('net::ERR_INTERNET_DISCONNECTED');
    };
    updates.checkAtStart();
    updater.emit('error', new Error('net::ERR_INTERNET_DISCONNECTED'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual([{ state: 'error', message: 'net::ERR_INTERNET_DISCONNECTED' }]);
    expect(logs.join('\n')).toContain('ERR_INTERNET_DISCONNECTED');
    expect(updates.installIfReady()).toBe(false);
  });
});
