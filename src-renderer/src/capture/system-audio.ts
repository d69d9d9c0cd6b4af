/**
 * The computer's sound for a meeting capture where the service cannot record it (Windows, macOS; docs/capture.md):
 * a screen share's audio track. In the desktop app the page first arms the app (DesktopBridge.armSystemAudio), which
 * then answers this one request with the screen and its sound without a picker (app/system-audio-capture.ts); in a
 * browser the browser asks which screen, window or tab to share, and the person ticks "share audio". The video is
 * dropped at once: only the sound is kept.
 */
import type { DesktopBridge } from '$common/desktop-bridge.js';
import { PageError } from '../shared/error-messages.js';

export async function systemAudioStream(bridge: Pick<DesktopBridge, 'armSystemAudio'> | null): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getDisplayMedia) throw new PageError('system_audio_unsupported');
  await bridge?.armSystemAudio();
  let stream: MediaStream;
  try {
    // Chromium: offer the whole system's sound where it can (systemAudio), and every surface in the picker.
    stream = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: true, systemAudio: 'include', selfBrowserSurface: 'exclude' } as DisplayMediaStreamOptions);
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'NotAllowedError' || name === 'AbortError') throw new PageError('system_audio_not_allowed');
    throw new PageError('system_audio_failed', (error as Error).message);
  }
  for (const track of stream.getVideoTracks()) {
    track.stop();
    stream.removeTrack(track);
  }
  if (stream.getAudioTracks().length === 0) throw new PageError('system_audio_missing');
  return stream;
}
