/**
 * A PulseAudio server of the test's own (its own HOME and runtime dir, so it never meets a desktop's sound server),
 * started as a daemon with the modules given, and removed with its files by stop(). The audio tests' null sink
 * (test/audio/pulse.ts) and the capture tests' laptop-in-a-call layout (capture-pulse.ts) are built on it. Missing
 * packages fail with the install line.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireCommand } from './system.js';

export interface PrivatePulse {
  /** The environment that points PulseAudio clients (paplay, parec, PortAudio's ALSA plugin) at this server. */
  env: NodeJS.ProcessEnv;
  pactl(...args: string[]): string;
  stop(): void;
}

/** `modules`: the `-L` arguments, e.g. `module-null-sink sink_name=vsink rate=48000`. */
export function startPrivatePulse(prefix: string, modules: string[]): PrivatePulse {
  const pulseaudio = requireCommand('pulseaudio', 'pulseaudio');
  requireCommand('pactl', 'pulseaudio-utils');
  const root = mkdtempSync(join(tmpdir(), prefix));
  const home = join(root, 'home');
  const run = join(root, 'run');
  mkdirSync(home);
  mkdirSync(run);
  chmodSync(run, 0o700);
  const env = { ...process.env, HOME: home, XDG_RUNTIME_DIR: run, PULSE_SERVER: `unix:${join(run, 'pulse', 'native')}` };
  execFileSync(
    pulseaudio,
    ['-D', '--exit-idle-time=-1', '--disallow-exit', '-n', '-L', 'module-native-protocol-unix', ...modules.flatMap((m) => ['-L', m]), '-L', 'module-always-sink'],
    { env, stdio: 'ignore' },
  );
  return {
    env,
    pactl: (...args) => execFileSync('pactl', args, { env, encoding: 'utf8' }),
    stop() {
      try {
        execFileSync(pulseaudio, ['--kill'], { env, stdio: 'ignore' });
      } catch {
        // Already gone.
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
