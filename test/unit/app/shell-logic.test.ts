import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { BatchWatcher } from '../../../src-main/app/batch-watcher.js';
import { INSTALL_KEY_FILE, loadOrCreateInstallKey } from '../../../src-main/app/install-key.js';
import { exportFormatArg, jobIdArg, liveVoiceArg, MAX_RECENT_FILES, modelIdArg, recentFilesArg, speedArg, textArg } from '../../../src-main/app/ipc-validate.js';
import { dispositionFileName } from '../../../src-main/app/export-drag.js';
import { trayLabel } from '../../../src-main/app/tray-status.js';
import { BRIDGE_CHANNELS } from '../../../src-main/common/desktop-bridge.js';
import { ApiError } from '../../../src-main/common/errors.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('per-install key', () => {
  it('is created once with mode 0600 and reused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'voxdesk-key-'));
    dirs.push(dir);
    const key = loadOrCreateInstallKey(join(dir, 'data'));
    expect(key).toMatch(/^vdk_[A-Za-z0-9_-]{40,}$/);
    expect(statSync(join(dir, 'data', INSTALL_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(loadOrCreateInstallKey(join(dir, 'data'))).toBe(key);
  });

  it('replaces a damaged key file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'voxdesk-key-'));
    dirs.push(dir);
    writeFileSync(join(dir, INSTALL_KEY_FILE), 'garbage');
    const key = loadOrCreateInstallKey(dir);
    expect(key).toMatch(/^vdk_/);
    expect(readFileSync(join(dir, INSTALL_KEY_FILE), 'utf8').trim()).toBe(key);
  });
});

describe('tray label', () => {
  it('says what the queue is doing', () => {
    expect(trayLabel(null)).toBe('Voxdesk — starting');
    expect(trayLabel({ queued: 0, running: 0, waiting: {} })).toBe('Voxdesk — idle');
    expect(trayLabel({ queued: 3, running: 1, waiting: {} })).toBe('Voxdesk — 1 running, 3 queued');
    expect(trayLabel({ queued: 0, running: 0, pending: 2, waiting: {} })).toBe('Voxdesk — 2 pending');
    expect(trayLabel({ queued: 2, running: 0, waiting: { waiting_for_network: 2 } })).toBe('Voxdesk — offline — 2 waiting');
    expect(trayLabel({ queued: 4, running: 1, waiting: { waiting_for_budget: 3 } })).toBe('Voxdesk — 1 running, 1 queued, 3 waiting for the monthly budget');
  });
});

describe('batch notifications', () => {
  const batch = (id: string, status: 'open' | 'complete', created: string, failed = 0) =>
    ({ id, status, product: 'speech-to-text' as const, file_count: 3, succeeded: 3 - failed, failed, created_at: created });

  it('announces a batch once when it completes, never history', () => {
    const since = Date.parse('2026-01-01T00:00:00Z');
    const w = new BatchWatcher(since);
    expect(w.update([batch('old', 'complete', '2025-12-31T00:00:00Z')])).toEqual([]);
    expect(w.update([batch('b1', 'open', '2026-01-01T00:00:01Z')])).toEqual([]);
    const [notice] = w.update([batch('b1', 'complete', '2026-01-01T00:00:01Z', 1)]);
    expect(notice).toEqual({ batchId: 'b1', title: 'Transcription batch finished', body: '2 of 3 files done, 1 failed.' });
    expect(w.update([batch('b1', 'complete', '2026-01-01T00:00:01Z', 1)])).toEqual([]);
    // Finished between two looks: still announced because it was created after the watcher started.
    expect(w.update([batch('b2', 'complete', '2026-01-01T00:00:09Z')])[0]?.body).toBe('All 3 files done.');
  });
});

describe('IPC argument validation', () => {
  it('accepts good values and rejects everything else', () => {
    expect(modelIdArg('espeak-ng')).toBe('espeak-ng');
    expect(speedArg(1.5)).toBe(1.5);
    expect(textArg('Hello.')).toBe('Hello.');
    for (const bad of [42, '', 'a b', '../x;rm', null, 'x'.repeat(201)]) expect(() => modelIdArg(bad)).toThrow(ApiError);
    for (const bad of [0.4, 2.1, NaN, '1', null, Infinity]) expect(() => speedArg(bad)).toThrow(ApiError);
    expect(liveVoiceArg({ voice: 'voice_abc', speaker: '3' })).toEqual({ voice: 'voice_abc', speaker: '3' });
    expect(liveVoiceArg(undefined)).toEqual({});
    for (const bad of ['en', [], { colour: 'red' }, { voice: 7 }, { voice: 'x'.repeat(201) }]) expect(() => liveVoiceArg(bad)).toThrow(ApiError);
    for (const bad of ['', '   ', 5, null, 'x'.repeat(20_001)]) expect(() => textArg(bad)).toThrow(ApiError);
  });

  it('drag-out takes a job id and an export format, nothing else', () => {
    expect(jobIdArg('job_01JX0000000000ABCDEFGHIJKLMN')).toBe('job_01JX0000000000ABCDEFGHIJKLMN');
    expect(exportFormatArg('srt')).toBe('srt');
    for (const bad of ['bat_1', 'job_', 'job_../x', '../../etc/passwd', 42, null]) expect(() => jobIdArg(bad)).toThrow(ApiError);
    for (const bad of ['exe', 'SRT', '', null, 1]) expect(() => exportFormatArg(bad)).toThrow(ApiError);
  });

  it('recent files keep only absolute paths of existing files, at most a bounded list', () => {
    const dir = mkdtempSync(join(tmpdir(), 'voxdesk-recent-'));
    dirs.push(dir);
    const file = join(dir, 'a.wav');
    writeFileSync(file, 'x');
    expect(recentFilesArg([file, 'a.wav', join(dir, 'gone.wav'), dir, `${file}\0x`, 7])).toEqual([file]);
    expect(() => recentFilesArg(file)).toThrow(ApiError);
    expect(() => recentFilesArg(Array(MAX_RECENT_FILES + 1).fill(file))).toThrow(ApiError);
  });
});

describe('export file names for drag-out', () => {
  it('takes the UTF-8 name of Content-Disposition and keeps it a plain name', () => {
    expect(dispositionFileName(`attachment; filename="Caf_ talk.srt"; filename*=UTF-8''Caf%C3%A9%20talk.srt`)).toBe('Café talk.srt');
    expect(dispositionFileName('attachment; filename="plain.txt"')).toBe('plain.txt');
    expect(dispositionFileName(`attachment; filename*=UTF-8''..%2F..%2Fetc%2Fpasswd`)).toBe('_.._etc_passwd');
    expect(dispositionFileName(`attachment; filename*=UTF-8''a%0Ab.txt`)).toBe('a_b.txt');
    expect(dispositionFileName(`attachment; filename*=UTF-8''%E0%A4%A`)).toBeNull();
    expect(dispositionFileName(null)).toBeNull();
  });
});

describe('preload', () => {
  /**
   * Runs the preload as the sandbox does — compiled to CommonJS, with `require` giving Electron and nothing else —
   * with Electron replaced at its boundary, calls every function of the bridge it exposes, and returns the channels
   * they used. The preload cannot import BRIDGE_CHANNELS (a sandboxed preload loads no local file), so this is what
   * keeps the two equal.
   */
  function channelsThePreloadUses(): Set<string> {
    const source = readFileSync(new URL('../../../src-main/app/preload/preload.ts', import.meta.url), 'utf8');
    const compiled = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
    const used = new Set<string>();
    const use = (channel: string): void => void used.add(channel);
    let bridge: Record<string, unknown> = {};
    const electron = {
      contextBridge: { exposeInMainWorld: (_name: string, api: Record<string, unknown>) => (bridge = api) },
      ipcRenderer: {
        sendSync: (channel: string) => (use(channel), { serviceUrl: 'http://127.0.0.1:1', apiKey: 'k', dataDir: '/d', platform: 'linux' }),
        invoke: (channel: string) => (use(channel), Promise.resolve()),
        send: use,
        on: use,
        removeListener: () => {},
      },
      webUtils: { getPathForFile: () => '' },
    };
    const sandboxRequire = (id: string): unknown => {
      if (id === 'electron') return electron;
      throw new Error(`a sandboxed preload cannot require ${id}`);
    };
    const module = { exports: {} };
    runInNewContext(compiled, { require: sandboxRequire, module, exports: module.exports });
    const callAll = (api: Record<string, unknown>): void => {
      for (const value of Object.values(api)) {
        if (typeof value === 'function') (value as (...args: unknown[]) => unknown)('x', 1, undefined);
        else if (value && typeof value === 'object') callAll(value as Record<string, unknown>);
      }
    };
    callAll(bridge);
    return used;
  }

  it('uses exactly the shared channel names, made by the rule BRIDGE_CHANNELS follows', () => {
    expect([...channelsThePreloadUses()].sort()).toEqual(Object.values(BRIDGE_CHANNELS).sort());
    for (const [name, channel] of Object.entries(BRIDGE_CHANNELS)) expect(channel).toBe(`voxdesk:${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
  });

  it('never exposes ipcRenderer or node to the page', () => {
    const source = readFileSync(new URL('../../../src-main/app/preload/preload.ts', import.meta.url), 'utf8');
    expect(source).toMatch(/exposeInMainWorld\('voxdesk', bridge\)/);
    expect(source.match(/exposeInMainWorld/g)).toHaveLength(1);
    expect(source).not.toMatch(/require\(['"](fs|child_process|node:)/);
  });
});
