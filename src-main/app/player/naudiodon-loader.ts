/**
 * Loads naudiodon in either runtime. naudiodon itself is Node-API and loads in Electron as npm built it, but at load
 * it requires segfault-handler, a NAN add-on built for Node's ABI only, through the `bindings` helper (which has no
 * way to be pointed elsewhere). Under Electron the package's entry is therefore put in the require cache first with
 * the Electron build from the per-ABI folder (platform/native-addons.ts) as its exports, which is exactly what its
 * entry (`module.exports = require('bindings')('segfault-handler')`) would have produced with that binary.
 */
import { createRequire, Module } from 'node:module';
import { dirname } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { currentRuntime, electronAddonPath, type RuntimeIdentity } from '../../platform/native-addons.js';

/** naudiodon's output stream, as the player uses it. */
export interface IoStreamWrite extends Writable {
  start(): void;
  /**
   * Ends the stream at once: the native queue stops, the chunk being played finishes, the device is closed and
   * PortAudio released. (naudiodon 2.3.6's abort() always throws "AudioIO Quit expects 1 argument" — it passes a
   * callback the native quit does not take — so it must not be used.)
   */
  quit(callback?: () => void): Promise<void>;
}

/** naudiodon's input stream, as dictate anywhere's microphone uses it (app/hotkey/naudiodon-microphone.ts). */
export interface IoStreamRead extends Readable {
  start(): void;
  quit(callback?: () => void): Promise<void>;
}

/** The part of naudiodon the player and the microphone use. */
export interface Naudiodon {
  SampleFormat16Bit: 16;
  getDevices(): { id: number; name: string; maxOutputChannels: number }[];
  AudioIO(options: { outOptions: Record<string, unknown> }): IoStreamWrite;
  AudioIO(options: { inOptions: Record<string, unknown> }): IoStreamRead;
}

const localRequire = createRequire(import.meta.url);

/**
 * Puts the Electron build of segfault-handler where naudiodon's `require('segfault-handler')` finds it; returns the
 * binary's path, or null under Node (nothing to do) or when segfault-handler is not installed.
 */
export function preloadSegfaultHandler(runtime: RuntimeIdentity = currentRuntime(), root?: string): string | null {
  if (!runtime.electron) return null;
  let entry: string;
  try {
    // Resolved as naudiodon resolves it: from naudiodon's own folder.
    const naudiodonRequire = createRequire(localRequire.resolve('naudiodon'));
    entry = naudiodonRequire.resolve('segfault-handler');
  } catch {
    return null; // naudiodon (optional) or its dependency is not installed: loading naudiodon reports it
  }
  const binary = root === undefined ? electronAddonPath('segfault-handler', runtime) : electronAddonPath('segfault-handler', runtime, root);
  if (!binary) return null;
  const cache = localRequire.cache;
  if (cache[entry]) return binary;
  const seeded = new Module(entry);
  seeded.filename = entry;
  seeded.paths = [dirname(entry)];
  seeded.exports = localRequire(binary);
  seeded.loaded = true;
  cache[entry] = seeded;
  return binary;
}

let naudiodon: Naudiodon | undefined;

/** naudiodon, loaded once; throws when it cannot load (not installed, no audio library, no Electron build). */
export function loadNaudiodon(): Naudiodon {
  if (!naudiodon) {
    preloadSegfaultHandler();
    naudiodon = localRequire('naudiodon') as Naudiodon;
  }
  return naudiodon;
}
