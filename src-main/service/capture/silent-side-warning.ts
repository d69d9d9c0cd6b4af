/**
 * The warning a capture raises when one side has been silent for a while as the other talks (silence-watch.ts;
 * docs/capture.md): what to check, in the words of the side that went quiet.
 */
import type { CaptureSide, CaptureWarning } from '../../common/capture-protocol.js';
import { CLIENT_DEVICE } from './capture-sources.js';

export function silentSideWarning(side: CaptureSide, seconds: number, devices: Record<CaptureSide, string>): CaptureWarning {
  return {
    code: 'silent_side',
    side,
    message:
      side === 'microphone'
        ? `your microphone has been silent for ${Math.round(seconds)} s while the other side talks: check that it is not muted and that the right one is chosen`
        : `the other side has been silent for ${Math.round(seconds)} s while you talk: check that the call plays through the output being recorded (${devices.system === CLIENT_DEVICE ? 'the shared audio' : devices.system})`,
  };
}
