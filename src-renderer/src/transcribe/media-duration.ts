/**
 * How long a recording is, read by the browser from its metadata (nothing is decoded): for the price of hosted
 * transcription before anything is sent. Null when the browser cannot tell (a container without a duration, such
 * as a MediaRecorder WebM, or a format it does not play); the service then charges the length it measures.
 */

/** Longest wait for a file's metadata. Default 8 s. */
export const METADATA_TIMEOUT_MS = 8000;

export function mediaSeconds(file: Blob, timeoutMs = METADATA_TIMEOUT_MS): Promise<number | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const media = document.createElement('audio');
    const done = (seconds: number | null): void => {
      clearTimeout(timer);
      media.removeAttribute('src');
      media.load();
      URL.revokeObjectURL(url);
      resolve(seconds);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    media.preload = 'metadata';
    media.onloadedmetadata = () => done(Number.isFinite(media.duration) && media.duration > 0 ? media.duration : null);
    media.onerror = () => done(null);
    media.src = url;
  });
}
