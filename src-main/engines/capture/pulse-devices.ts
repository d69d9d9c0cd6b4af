/**
 * The devices of the PulseAudio or PipeWire sound server (PipeWire answers the same `pactl` through pipewire-pulse):
 * inputs are microphones, every sink's monitor is "what this output plays". Read with `pactl -f json` (pactl 15 and
 * later), the default devices with `pactl get-default-source` / `get-default-sink`.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { CaptureDevice } from './capture-types.js';

const run = promisify(execFile);

/** How long one pactl call may take before the sound server counts as unreachable. Default 5 s. */
export const PACTL_TIMEOUT_MS = 5_000;

interface PactlSource {
  name: string;
  description?: string;
  monitor_of_sink?: string | null;
  properties?: Record<string, string>;
}

async function pactl(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await run('pactl', args, { env, timeout: PACTL_TIMEOUT_MS, maxBuffer: 8 * 1024 * 1024 });
  return stdout.trim();
}

/** Whether a source is a sink's monitor (the monitor_of_sink field is "n/a" for inputs in pactl's JSON). */
function isMonitor(source: PactlSource): boolean {
  const of = source.monitor_of_sink;
  return (typeof of === 'string' && of !== '' && of !== 'n/a') || source.properties?.['device.class'] === 'monitor' || source.name.endsWith('.monitor');
}

/**
 * The sound server's capture devices; throws with the reason when pactl is missing or the server does not answer
 * (the message says what to install or start).
 */
export async function listPulseDevices(env: NodeJS.ProcessEnv = process.env): Promise<CaptureDevice[]> {
  let sources: PactlSource[];
  let defaultSource: string;
  let defaultSink: string;
  try {
    [sources, defaultSource, defaultSink] = await Promise.all([
      pactl(['-f', 'json', 'list', 'sources'], env).then((out) => JSON.parse(out) as PactlSource[]),
      pactl(['get-default-source'], env),
      pactl(['get-default-sink'], env),
    ]);
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') throw new Error('pactl is not installed (PulseAudio or PipeWire: install pulseaudio-utils)');
    throw new Error(`the sound server did not answer (is PulseAudio or PipeWire running?): ${(e.stderr || e.message).trim()}`);
  }
  const devices: CaptureDevice[] = [];
  for (const source of sources) {
    const monitor = isMonitor(source);
    devices.push({
      id: source.name,
      name: source.description || source.name,
      kind: monitor ? 'system' : 'microphone',
      default: monitor ? source.name === `${defaultSink}.monitor` : source.name === defaultSource,
    });
  }
  // The default devices first, so a client can take the first of each kind.
  return devices.sort((a, b) => Number(b.default) - Number(a.default));
}
