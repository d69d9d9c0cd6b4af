/**
 * What layout detection needs to know of a folder: its regular files and sub-folders, the start of a text file, and
 * an .onnx file's metadata. diskListing() reads a folder on disk; an import builds a listing from its copy plan
 * (imports/import-plan.ts), so the layout is known before anything is copied and links are seen as the files they
 * will become. Every read is asynchronous: detection runs on the service's thread while HTTP and live sockets are
 * served, and only the few bytes detection looks at are read (never a whole model file).
 */
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readOnnxMetadataAsync, type OnnxMetadata } from '../../engines/onnx-metadata.js';

export interface FolderListing {
  /** Regular files and sub-folders directly in `rel` ('' = the top), by name. */
  entries(rel: string): Promise<{ files: string[]; dirs: string[] }>;
  /** The first HEAD_CHARS characters of a file as UTF-8, or null when it cannot be read. */
  head(rel: string): Promise<string | null>;
  /** An .onnx file's metadata (engines/onnx-metadata.ts), or null when it cannot be read as ONNX. */
  metadata(rel: string): Promise<OnnxMetadata | null>;
}

/** How much of a text file (tokens.txt, a config) detection reads. */
export const HEAD_CHARS = 20_000;

/** A folder on disk as a FolderListing (directory entries that are links are neither files nor folders). */
export function diskListing(dir: string): FolderListing {
  return {
    async entries(rel) {
      const entries = await readdir(join(dir, rel), { withFileTypes: true });
      return { files: entries.filter((e) => e.isFile()).map((e) => e.name), dirs: entries.filter((e) => e.isDirectory()).map((e) => e.name) };
    },
    head: (rel) => readHead(join(dir, rel)),
    metadata: (rel) => onnxMetadataOrNull(join(dir, rel)),
  };
}

/**
 * The first HEAD_CHARS characters of a file as UTF-8 (only that much is read), or null when it cannot be read.
 * `flags`: open flags (an import opens without following a final link).
 */
export async function readHead(path: string, flags: number | string = 'r'): Promise<string | null> {
  try {
    const handle = await open(path, flags);
    try {
      const buffer = Buffer.alloc(HEAD_CHARS * 4);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      return buffer.subarray(0, bytesRead).toString('utf8').slice(0, HEAD_CHARS);
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

/** The metadata of an .onnx file, or null when it cannot be read as ONNX (detection then goes by file names). */
export async function onnxMetadataOrNull(path: string): Promise<OnnxMetadata | null> {
  try {
    return await readOnnxMetadataAsync(path);
  } catch {
    return null;
  }
}
