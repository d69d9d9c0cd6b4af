/**
 * What Voxdesk accepts of a hosted job's artifacts. The hosted answer names each file's URL and type, but the file is
 * then kept here and served from this service's own origin (GET /v1/artifacts/…), where a page of the browser UI
 * runs: so a link is followed only to the hosted service's own origin (not to any address the answer names — the
 * local network, a cloud metadata address), no redirect is followed, a file is at most maxArtifactBytes, and the
 * content type served is chosen here: sniffed from the file's first bytes (WAV, MP3, FLAC, Ogg, WebM, MP4/M4A), or
 * a raw-PCM type of the strict form Voxdesk itself answers, else application/octet-stream — never `text/html`.
 */
import { sniffAudioType } from '../common/audio-sniff.js';
import { RemoteError } from './remote-errors.js';

/** The artifact's absolute URL when it is on the hosted service's own origin; a RemoteError (remote_failed) if not. */
export function hostedArtifactUrl(artifactUrl: string, endpointUrl: string): string {
  const endpoint = new URL(`${endpointUrl}/`);
  let url: URL;
  try {
    url = new URL(artifactUrl, endpoint);
  } catch {
    throw new RemoteError('rejected', 'remote_failed', `the hosted service named an artifact with an unusable URL (${JSON.stringify(String(artifactUrl).slice(0, 200))})`, 0);
  }
  if (url.origin !== endpoint.origin) {
    throw new RemoteError(
      'rejected',
      'remote_failed',
      `the hosted service named an artifact at ${url.origin}, not at its own address ${endpoint.origin}; it was not downloaded`,
      0,
    );
  }
  return url.href;
}

const PCM_TYPE = /^audio\/(pcm|l16)(\s*;\s*(rate|channels|encoding)=[A-Za-z0-9_.-]{1,16}){0,3}$/i;

/** The content type to serve a downloaded hosted artifact with (see the docblock). */
export function hostedArtifactType(declared: string | null | undefined, head: Buffer): string {
  const sniffed = sniffAudioType(head);
  if (sniffed) return sniffed;
  const type = (declared ?? '').trim();
  if (PCM_TYPE.test(type)) return type.replace(/\s*;\s*/g, ';').toLowerCase();
  return 'application/octet-stream';
}
