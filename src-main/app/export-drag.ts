/**
 * Drag-out of an export to the file manager (issue 35.6): the OS drags a file, so the export the page asks for (a
 * transcription and a format, checked in ipc-validate.ts) is rendered by the in-process service, as the page's own
 * Export button would fetch it, and written under its export name (`interview.srt`) into a private folder of the
 * data dir that lives only while the app runs (emptied at start and at quit). The main process then hands that file
 * to `webContents.startDrag`.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TranscriptFormat } from '../common/transcript-formats.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../store/private-files.js';
import { ApiClientError } from '../common/api-client.js';

/** The folder under the data dir. */
export const DRAG_FOLDER = 'drag-out';

/** The file name of a Content-Disposition header (its UTF-8 form first), reduced to a plain name. */
export function dispositionFileName(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(header);
  let name: string | null = null;
  if (extended) {
    try {
      name = decodeURIComponent(extended[1]!);
    } catch {
      name = null;
    }
  }
  name ??= /filename="([^"]*)"/i.exec(header)?.[1] ?? null;
  // A name, never a path: separators, control characters and a leading dot go.
  const plain = name
    ?.replace(/[\\/]/g, '_')
    .replace(/\p{Cc}/gu, '_')
    .replace(/^\.+/, '')
    .trim();
  return plain ? plain.slice(0, 200) : null;
}

export class ExportDrag {
  private readonly folder: string;

  constructor(
    dataDir: string,
    private readonly service: { url: string; apiKey: string },
  ) {
    this.folder = join(dataDir, DRAG_FOLDER);
    this.clear();
  }

  /** Renders the export and returns the file to drag. Throws ApiClientError with the service's code and reason. */
  async file(jobId: string, format: TranscriptFormat): Promise<string> {
    const response = await fetch(`${this.service.url}/v1/speech-to-text/${encodeURIComponent(jobId)}/export?format=${format}`, {
      headers: { authorization: `Bearer ${this.service.apiKey}` },
    });
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
      throw new ApiClientError(body?.error?.code ?? 'internal_error', body?.error?.message ?? `the export answered ${response.status}`, response.status);
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    const name = dispositionFileName(response.headers.get('content-disposition')) ?? `${jobId}.${format}`;
    // A folder per drag: two exports of the same name never overwrite one being dropped.
    const dir = join(this.folder, randomUUID());
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const path = join(dir, name);
    writeFileSync(path, bytes, { mode: PRIVATE_FILE_MODE });
    return path;
  }

  /** Removes every file made for a drag (at start and at quit: a drop copies the file). */
  clear(): void {
    rmSync(this.folder, { recursive: true, force: true });
  }
}
