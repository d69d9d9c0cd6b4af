/**
 * Which devices a capture can record on this machine (GET /v1/captures/sources), and the sources for a request's
 * choice of them: on Linux the PulseAudio or PipeWire sound server (the default microphone and the monitor of the
 * default output unless the request names others); elsewhere, or when asked with `client`, the client sends the side
 * itself over the capture socket (the desktop app on Windows and macOS, with Electron's loopback audio capture).
 */
import { ApiError } from '../../common/errors.js';
import type { CaptureSide, CaptureSources } from '../../common/capture-protocol.js';
import { ClientSource } from '../../engines/capture/client-source.js';
import type { PcmSource } from '../../engines/capture/capture-types.js';
import { listPulseDevices } from '../../engines/capture/pulse-devices.js';
import { PulseSource } from '../../engines/capture/pulse-source.js';
import type { CaptureOptions } from './capture-options.js';

export const CLIENT_DEVICE = 'client';
export const DEFAULT_DEVICE = 'default';

export async function captureSources(options: Pick<CaptureOptions, 'env' | 'platform'>): Promise<CaptureSources> {
  if (options.platform !== 'linux') {
    return { object: 'capture.sources', backend: 'client', devices: [], reason: null };
  }
  try {
    return { object: 'capture.sources', backend: 'pulse', devices: await listPulseDevices(options.env), reason: null };
  } catch (error) {
    return { object: 'capture.sources', backend: 'client', devices: [], reason: `this machine's devices cannot be recorded by the service: ${(error as Error).message}; a client can still send both sides` };
  }
}

/** The source of each side for a request (`default`, a device id, or `client`); throws capture_unavailable with the reason. */
export async function openSources(
  wanted: Record<CaptureSide, string>,
  options: Pick<CaptureOptions, 'env' | 'platform'>,
): Promise<{ sources: Record<CaptureSide, PcmSource>; devices: Record<CaptureSide, string> }> {
  const needsServer = Object.values(wanted).some((device) => device !== CLIENT_DEVICE);
  const list = needsServer ? await captureSources(options) : null;
  const sources = {} as Record<CaptureSide, PcmSource>;
  const devices = {} as Record<CaptureSide, string>;
  for (const side of ['microphone', 'system'] as const) {
    const device = wanted[side];
    if (device === CLIENT_DEVICE) {
      sources[side] = new ClientSource(side);
      devices[side] = CLIENT_DEVICE;
      continue;
    }
    if (list!.backend !== 'pulse') {
      throw new ApiError('capture_unavailable', list!.reason ?? `the service cannot record this machine's devices on ${options.platform}: send both sides from the client (microphone and system set to "client")`);
    }
    const found = device === DEFAULT_DEVICE ? list!.devices.find((d) => d.kind === side && d.default) : list!.devices.find((d) => d.id === device);
    if (!found) {
      throw new ApiError(
        'capture_unavailable',
        device === DEFAULT_DEVICE
          ? `the sound server has no default ${side === 'microphone' ? 'microphone' : 'output to record'}; choose a device of GET /v1/captures/sources`
          : `no device ${device} (GET /v1/captures/sources lists them)`,
      );
    }
    if (found.kind !== side) {
      throw new ApiError('invalid_params', `${device} is ${found.kind === 'system' ? "an output's monitor" : 'a microphone'}: it cannot be recorded as the ${side} side`);
    }
    sources[side] = new PulseSource(side, found.id, options.env);
    devices[side] = found.id;
  }
  return { sources, devices };
}
