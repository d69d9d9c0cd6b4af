/**
 * What a model import will copy, worked out before anything is copied, without blocking the event loop and without
 * leaving the folder the person chose:
 * - the chosen path itself may be a link (a folder on another disk); inside it, a link is followed only when it
 *   resolves inside the chosen folder (a model's `model.int8.onnx → model.onnx`); links pointing outside or nowhere
 *   are not followed and not copied (counted in skippedLinks), so an import cannot read the rest of the machine;
 * - sockets, pipes and devices are never opened (opening a pipe would wait forever);
 * - a folder with more than MAX_IMPORT_ENTRIES entries or deeper than MAX_IMPORT_DEPTH is refused (someone picked
 *   their home folder, not a model).
 * The plan carries a FolderListing of what the copy will hold, so the layout (layouts/detect-layout.ts) is detected —
 * and a wrong folder refused — before a byte is copied.
 */
import { constants } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, sep } from 'node:path';
import { ApiError } from '../../common/errors.js';
import { onnxMetadataOrNull, readHead, type FolderListing } from '../layouts/folder-listing.js';

/** Most files and folders an import may hold. Default 10 000 (model folders hold a few dozen). */
export const MAX_IMPORT_ENTRIES = 10_000;
/** Deepest folder nesting an import may have. Default 16 (espeak-ng-data is 3 deep). */
export const MAX_IMPORT_DEPTH = 16;

export interface PlannedFile {
  /** Path inside the imported folder (forward or platform separators, as join() makes them). */
  rel: string;
  /** Real path of the bytes to copy (inside the chosen folder). */
  source: string;
  size: number;
}

export interface ImportPlan {
  /** The chosen path, resolved (links in it followed). */
  root: string;
  /** True when a single .onnx file was chosen. */
  singleFile: boolean;
  /** Folders to create, relative, parents first. */
  dirs: string[];
  files: PlannedFile[];
  bytes: number;
  /** Links inside the folder that point outside it (or nowhere): not followed, not copied. */
  skippedLinks: number;
  /** Sockets, pipes and devices: not copied. */
  skippedSpecial: number;
  /** What the copy will hold, for layout detection. */
  listing: FolderListing;
}

/** O_NOFOLLOW where the platform has it: a file swapped for a link after the walk is not opened through the link. */
export const OPEN_NO_FOLLOW = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** Walks `source` (a folder or one .onnx file) and returns what an import would copy. Errors are ApiErrors (400). */
export async function planImport(source: string, signal?: AbortSignal): Promise<ImportPlan> {
  let root: string;
  try {
    root = await realpath(source);
  } catch {
    throw new ApiError('invalid_request', `${source} does not exist`);
  }
  const top = await stat(root);
  const entries = new Map<string, { files: string[]; dirs: string[] }>([['', { files: [], dirs: [] }]]);
  const heads = new Map<string, string | null>();
  const plan: ImportPlan = {
    root,
    singleFile: top.isFile(),
    dirs: [],
    files: [],
    bytes: 0,
    skippedLinks: 0,
    skippedSpecial: 0,
    listing: {
      entries: async (rel) => entries.get(rel) ?? { files: [], dirs: [] },
      head: async (rel) => heads.get(rel) ?? null,
      // Read from the planned file itself (a regular file inside the folder), only when detection asks.
      metadata: async (rel) => {
        const file = plan.files.find((f) => f.rel === rel);
        return file && rel.endsWith('.onnx') ? onnxMetadataOrNull(file.source) : null;
      },
    },
  };
  const addFile = async (rel: string, parent: string, name: string, real: string, size: number): Promise<void> => {
    plan.files.push({ rel, source: real, size });
    plan.bytes += size;
    entries.get(parent)!.files.push(name);
    if (name.endsWith('tokens.txt')) heads.set(rel, await readHead(real, OPEN_NO_FOLLOW));
  };

  if (top.isFile()) {
    if (!root.endsWith('.onnx') && !source.endsWith('.onnx')) {
      throw new ApiError('invalid_request', `${source} is a file but not an .onnx model; import its folder`);
    }
    const name = basename(source);
    await addFile(name, '', name, root, top.size);
    return plan;
  }
  if (!top.isDirectory()) throw new ApiError('invalid_request', `${source} is neither a folder nor an .onnx file`);

  let count = 0;
  const visited = new Set<string>([root]);
  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    if (depth > MAX_IMPORT_DEPTH) throw new ApiError('invalid_request', `${source} is nested deeper than ${MAX_IMPORT_DEPTH} folders; import the model's own folder`);
    const names = (await readdir(dir)).sort();
    for (const name of names) {
      if (signal?.aborted) throw signal.reason;
      if (++count > MAX_IMPORT_ENTRIES) {
        throw new ApiError('invalid_request', `${source} holds more than ${MAX_IMPORT_ENTRIES} files and folders; import the model's own folder`);
      }
      const path = join(dir, name);
      const childRel = rel ? join(rel, name) : name;
      const info = await lstat(path);
      let real = path;
      let kind = info;
      if (info.isSymbolicLink()) {
        try {
          real = await realpath(path);
          kind = await stat(real);
        } catch {
          plan.skippedLinks++; // points nowhere
          continue;
        }
        if (!inside(root, real)) {
          plan.skippedLinks++;
          continue;
        }
      }
      if (kind.isDirectory()) {
        if (visited.has(real)) {
          plan.skippedLinks++; // a link back up the tree
          continue;
        }
        visited.add(real);
        entries.get(rel)!.dirs.push(name);
        entries.set(childRel, { files: [], dirs: [] });
        plan.dirs.push(childRel);
        await walk(real, childRel, depth + 1);
      } else if (kind.isFile()) {
        await addFile(childRel, rel, name, real, kind.size);
      } else {
        plan.skippedSpecial++;
      }
    }
  };
  await walk(root, '', 0);
  return plan;
}

/** A sentence about what was left out, for messages; '' when nothing was. */
export function skippedNote(plan: ImportPlan): string {
  const parts: string[] = [];
  if (plan.skippedLinks) parts.push(`${plan.skippedLinks} link(s) pointing outside the folder were not followed`);
  if (plan.skippedSpecial) parts.push(`${plan.skippedSpecial} special file(s) were skipped`);
  return parts.length ? ` (${parts.join('; ')})` : '';
}
