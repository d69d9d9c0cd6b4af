/**
 * The meeting capture's system sound on Windows and macOS (src-main/app/system-audio-capture.ts): Chromium's loopback
 * features are added to any given already, and a getDisplayMedia request is granted the screen and its sound only
 * from the app's origin, asking for sound, within ARM_MS of one arming, once.
 */
import { describe, expect, it } from 'vitest';
import { APP_ORIGIN } from '../../../src-main/app/app-protocol.js';
import { ARM_MS, enableLoopbackFeatures, LOOPBACK_FEATURES, SystemAudioGrant, type DisplayMediaStreamsLike } from '../../../src-main/app/system-audio-capture.js';
import { FakeCommandLine } from '../../helpers/fake-electron.js';
import { logInto } from '../../helpers/log.js';

type Handler = (request: { securityOrigin: string; audioRequested: boolean }, callback: (streams: DisplayMediaStreamsLike) => void) => void;

function installed(grant: SystemAudioGrant, getSources: () => Promise<{ id: string; name: string }[]>): { ask(origin: string, audio?: boolean): Promise<unknown>; log: string[] } {
  let handler!: Handler;
  const log: string[] = [];
  grant.install({ setDisplayMediaRequestHandler: (h) => void (handler = h) }, { getSources }, logInto(log));
  return { ask: (origin, audio = true) => new Promise((resolve) => handler({ securityOrigin: origin, audioRequested: audio }, resolve)), log };
}

const SCREEN = { id: 'screen:1:0', name: 'Screen 1' };

describe('system sound for a meeting capture', () => {
  it('adds the loopback features to those given already, once', () => {
    const line = new FakeCommandLine();
    line.appendSwitch('enable-features', 'SomethingElse,MacLoopbackAudioForScreenShare');
    enableLoopbackFeatures(line);
    expect(line.getSwitchValue('enable-features').split(',')).toEqual(['SomethingElse', ...LOOPBACK_FEATURES]);
    const fresh = new FakeCommandLine();
    enableLoopbackFeatures(fresh);
    expect(fresh.getSwitchValue('enable-features')).toBe(LOOPBACK_FEATURES.join(','));
  });

  it('grants the first screen with its sound to the armed request of the app page, once', async () => {
    let now = 1_000;
    const grant = new SystemAudioGrant(() => now);
    const { ask, log } = installed(grant, async () => [SCREEN, { id: 'screen:2:0', name: 'Screen 2' }]);
    expect(await ask(APP_ORIGIN)).toBeNull();
    grant.arm();
    expect(await ask(APP_ORIGIN)).toEqual({ video: SCREEN, audio: 'loopback' });
    expect(await ask(APP_ORIGIN)).toBeNull();
    grant.arm();
    expect(await ask(APP_ORIGIN, false)).toBeNull(); // no sound asked for: not what a meeting asks
    grant.arm();
    expect(await ask('https://example.com')).toBeNull();
    grant.arm();
    now += ARM_MS + 1;
    expect(await ask(APP_ORIGIN)).toBeNull(); // the arming lapsed
    expect(log.filter((m) => m.startsWith('display capture refused'))).toHaveLength(5);
  });

  it('refuses when there is no screen or the screens cannot be listed, saying why in the log', async () => {
    const none = new SystemAudioGrant();
    const empty = installed(none, async () => []);
    none.arm();
    expect(await empty.ask(APP_ORIGIN)).toBeNull();
    expect(empty.log).toEqual(['display capture: no screen to share the sound of']);
    const broken = new SystemAudioGrant();
    const failing = installed(broken, async () => {
      throw new Error('screen recording is not allowed for Voxdesk');
    });
    broken.arm();
    expect(await failing.ask(APP_ORIGIN)).toBeNull();
    expect(failing.log).toEqual(['display capture: screen recording is not allowed for Voxdesk']);
  });
});
