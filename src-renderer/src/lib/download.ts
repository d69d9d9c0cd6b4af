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
