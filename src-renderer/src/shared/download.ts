/** Save a Blob through an <a download> (works in Chromium, Electron and browser mode alike). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** "interview.wav" → "interview" (for export names). */
export function baseName(name: string | null | undefined, fallback: string): string {
  const n = (name ?? '').replace(/\.[^./\\]+$/, '').trim();
  return n || fallback;
}

/**
 * Download a link of the service (artifacts need no key). Fetched into a Blob because a cross-origin
 * <a download> (Electron's app:// page → 127.0.0.1) would navigate instead of saving.
 */
export async function downloadUrl(url: string, filename: string): Promise<void> {
  const response = await fetch(url);
  if (!response.ok) {
    let code = `http_${response.status}`;
    try {
      code = ((await response.json()) as { error?: { code?: string } }).error?.code ?? code;
    } catch {
      // not a JSON error body
    }
    throw Object.assign(new Error(`download failed (${response.status})`), { code });
  }
  saveBlob(await response.blob(), filename);
}

/** A file name for an artifact: the label, else the job id, with the extension of its content type. */
export function artifactName(label: string | null | undefined, fallback: string, contentType: string | undefined): string {
  const ext = /wav/.test(contentType ?? '') ? 'wav' : /mpeg|mp3/.test(contentType ?? '') ? 'mp3' : /ogg|opus/.test(contentType ?? '') ? 'ogg' : /flac/.test(contentType ?? '') ? 'flac' : 'wav';
  const base = baseName(label, fallback).replace(/[^\p{L}\p{N} ._-]+/gu, '').slice(0, 60).trim() || fallback;
  return `${base}.${ext}`;
}
