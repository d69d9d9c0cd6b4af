/**
 * Files from a drop: plain files, or whole folders walked through webkitGetAsEntry (Chromium and Electron).
 * Only audio/video files are kept when folders are walked; a single dropped file is always kept (the service
 * decides whether it can decode it, and says so).
 */

const MEDIA = /\.(wav|mp3|m4a|aac|flac|ogg|oga|opus|webm|mp4|mkv|mov|wma|aiff?|caf|amr)$/i;

export function isMediaName(name: string): boolean {
  return MEDIA.test(name);
}

interface EntryLike {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  fullPath?: string;
  file?(ok: (file: File) => void, fail: (err: unknown) => void): void;
  createReader?(): { readEntries(ok: (entries: EntryLike[]) => void, fail: (err: unknown) => void): void };
}

async function readAll(dir: EntryLike): Promise<EntryLike[]> {
  const reader = dir.createReader!();
  const all: EntryLike[] = [];
  // readEntries returns batches (100 in Chromium) until an empty one.
  for (;;) {
    const batch = await new Promise<EntryLike[]>((ok, fail) => reader.readEntries(ok, fail));
    if (!batch.length) return all;
    all.push(...batch);
  }
}

async function walk(entry: EntryLike, out: File[], inFolder: boolean): Promise<void> {
  if (entry.isFile && entry.file) {
    const file = await new Promise<File>((ok, fail) => entry.file!(ok, fail));
    if (!inFolder || isMediaName(file.name)) out.push(file);
  } else if (entry.isDirectory) {
    const children = await readAll(entry);
    children.sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));
    for (const child of children) await walk(child, out, true);
  }
}

export async function filesFromDataTransfer(data: DataTransfer): Promise<File[]> {
  const entries: EntryLike[] = [];
  const loose: File[] = [];
  for (const item of Array.from(data.items)) {
    if (item.kind !== 'file') continue;
    const entry = (item as DataTransferItem & { webkitGetAsEntry?: () => EntryLike | null }).webkitGetAsEntry?.();
    if (entry) entries.push(entry);
    else {
      const file = item.getAsFile();
      if (file) loose.push(file);
    }
  }
  // Entries must be taken synchronously during the drop event (above); reading them may then be async.
  const out: File[] = [...loose];
  for (const entry of entries) await walk(entry, out, false);
  if (!out.length && data.files.length) return Array.from(data.files);
  return out;
}
