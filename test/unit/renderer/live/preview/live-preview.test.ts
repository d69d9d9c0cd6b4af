/**
 * The Live tab's session (src-renderer/src/lib/live-preview.svelte.ts) in the desktop app's path: the preload bridge
 * is the faked boundary (it would play on the sound card through the main process); it records what it is asked and
 * reports playback events as the main process does. Sentences are spoken as they are finished, each once; Speak sends
 * the rest; a new voice opens a new session; errors arrive in plain words.
 */
import { describe, expect, it } from 'vitest';
import type { DesktopBridge, LiveBridgeEvent } from '../../../../../src-main/common/desktop-bridge.js';
import { ApiClient } from '../../../../../src-main/common/api-client.js';
import { LivePreview } from '../../../../../src-renderer/src/live/preview/live-preview.svelte.js';

function fakeBridge() {
  const calls: string[] = [];
  let listener: ((event: LiveBridgeEvent) => void) | null = null;
  const live: DesktopBridge['live'] = {
    start: async (modelId, speed, voice) => (calls.push(`start ${modelId} ${speed}${voice && Object.keys(voice).length ? ` ${JSON.stringify(voice)}` : ''}`), { sampleRate: 24000 }),
    speak: async (text) => void calls.push(`speak ${text}`),
    setSpeed: async (speed) => void calls.push(`speed ${speed}`),
    stop: async () => void calls.push('stop'),
    onEvent: (l) => {
      listener = l;
      return () => (listener = null);
    },
  };
  const bridge = {
    serviceUrl: 'http://127.0.0.1:1',
    apiKey: 'k',
    dataDir: '/tmp',
    platform: 'linux',
    pickFiles: async () => [],
    pickFolder: async () => null,
    openDataDir: async () => undefined,
    live,
    startExportDrag: () => undefined,
    pathForFile: () => '',
    addRecentFiles: async () => undefined,
    onUpdate: () => () => undefined,
    onOpenWork: () => () => undefined,
    hotkey: {
      get: async () => ({ enabled: false, shortcut: 'Ctrl+Alt+Space', mode: 'hold' as const, insertion: 'paste' as const, model: null, armed: false, problem: null, activeModel: null }),
      set: async () => ({ enabled: false, shortcut: 'Ctrl+Alt+Space', mode: 'hold' as const, insertion: 'paste' as const, model: null, armed: false, problem: null, activeModel: null }),
    },
    armSystemAudio: async () => undefined,
  } satisfies DesktopBridge;
  return { bridge, calls, emit: (event: LiveBridgeEvent) => listener?.(event), listening: () => listener !== null };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('LivePreview (desktop bridge)', () => {
  it('speaks each finished sentence once, then the rest on Speak', async () => {
    const { bridge, calls, emit } = fakeBridge();
    let model = 'espeak-ng';
    const live = new LivePreview({ api: new ApiClient({ baseUrl: 'http://127.0.0.1:1', apiKey: null }), bridge }, { modelId: () => model, speed: () => 1.25 });
    expect(live.native).toBe(true);
    live.typed('Hello there', true);
    await settle();
    expect(calls).toEqual([]); // no finished sentence yet: no session either
    live.typed('Hello there. How are', true);
    await settle();
    expect(calls).toEqual(['start espeak-ng 1.25', 'speak Hello there.']);
    expect(live.phase).toBe('speaking');
    expect(live.sampleRate).toBe(24000);

    emit({ type: 'audio', samples: 2400 });
    emit({ type: 'audio', samples: 2400 });
    emit({ type: 'done', cancelled: false });
    expect(live.stats).toMatchObject({ frames: 2, samples: 4800, responses: 1 });
    expect(live.stats.scheduledSeconds).toBeCloseTo(0.2, 6);
    expect(live.phase).toBe('ready');

    live.typed('Hello there. How are you? Fine', false); // not speaking as typed
    await live.speakRest('Hello there. How are you? Fine');
    expect(calls.slice(2)).toEqual(['speak How are you? Fine']);
    await live.speakRest('Hello there. How are you? Fine'); // everything sent: Speak says it all again
    expect(calls.at(-1)).toBe('speak Hello there. How are you? Fine');

    emit({ type: 'error', code: 'engine_crashed', message: 'boom' });
    expect(live.problem.text).toBe('The speech engine stopped unexpectedly while working on this item. Retry it.');

    model = 'other-voice';
    live.reset();
    await live.speakRest('Again.');
    expect(calls.slice(-3)).toEqual(['stop', 'start other-voice 1.25', 'speak Again.']);
    expect(live.problem.text).toBeNull();

    live.speedChanged();
    await live.stop();
    expect(calls.slice(-2)).toEqual(['speed 1.25', 'stop']);
    expect(live.phase).toBe('ready');
    await live.close();
  });

  it('opens the native session with the chosen voice, and a new one when the voice changes', async () => {
    const { bridge, calls } = fakeBridge();
    let voice: Record<string, string> = { voice: 'voice_saved1' };
    const live = new LivePreview({ api: new ApiClient({ baseUrl: 'http://127.0.0.1:1', apiKey: null }), bridge }, { modelId: () => 'kokoro-en-v0_19', speed: () => 1, voice: () => voice });
    await live.speakRest('Hello.');
    expect(calls).toEqual(['start kokoro-en-v0_19 1 {"voice":"voice_saved1"}', 'speak Hello.']);
    voice = { speaker: '3' };
    live.reset();
    await live.speakRest('Again.');
    expect(calls.slice(-3)).toEqual(['stop', 'start kokoro-en-v0_19 1 {"speaker":"3"}', 'speak Again.']);
    await live.close();
  });

  it('a session that cannot open says why and speaks nothing', async () => {
    const { bridge, calls, listening } = fakeBridge();
    bridge.live.start = async () => {
      throw new Error('no sound device');
    };
    const live = new LivePreview({ api: new ApiClient({ baseUrl: 'http://127.0.0.1:1', apiKey: null }), bridge }, { modelId: () => 'espeak-ng', speed: () => 1 });
    await live.speakRest('Hello.');
    expect(live.problem.text).toBe('no sound device');
    expect(live.phase).toBe('closed');
    expect(calls).toEqual([]);
    await live.close();
    expect(listening()).toBe(false);
  });
});
