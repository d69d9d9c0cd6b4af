/**
 * A private PulseAudio server laid out like a laptop in a call (docs/capture.md): the default output `speakers` (a
 * null sink: what is played into it is "the other side", recorded from its monitor) and the default microphone `mic`
 * (the monitor of a second null sink `micsink`, so a recording played into `micsink` is what the person says).
 * Used by the capture tests, the hotkey test and the capture benchmark. Missing packages fail with the install line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { startPrivatePulse } from './private-pulse.js';
import { requireCommand } from './system.js';

export interface CapturePulse {
  env: NodeJS.ProcessEnv;
  /** Plays a WAV file into the microphone (`mic`) or the speakers (the default output); resolves when it has played. */
  play(file: string, into: 'mic' | 'speakers'): Promise<void>;
  /** Plays a file in the background; the returned child can be killed. */
  playing(file: string, into: 'mic' | 'speakers'): ChildProcess;
  pactl(...args: string[]): string;
  stop(): void;
}

export function startCapturePulse(): CapturePulse {
  const paplay = requireCommand('paplay', 'pulseaudio-utils');
  requireCommand('parec', 'pulseaudio-utils');
  const pulse = startPrivatePulse('voxdesk-capture-pulse-', ['module-null-sink sink_name=speakers rate=48000', 'module-null-sink sink_name=micsink rate=48000']);
  const { env, pactl } = pulse;
  pactl('set-default-sink', 'speakers');
  pactl('load-module', 'module-remap-source', 'master=micsink.monitor', 'source_name=mic', 'source_properties=device.description=Test-microphone');
  pactl('set-default-source', 'mic');
  const playing = (file: string, into: 'mic' | 'speakers'): ChildProcess =>
    spawn(paplay, ['-d', into === 'mic' ? 'micsink' : 'speakers', file], { env, stdio: 'ignore' });
  return {
    env,
    pactl,
    playing,
    play: (file, into) =>
      new Promise((resolve, reject) => {
        const child = playing(file, into);
        child.once('error', reject);
        child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`paplay ${file} exited ${code}`))));
      }),
    stop: () => pulse.stop(),
  };
}
