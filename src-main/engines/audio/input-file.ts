/**
 * The recording a job reads, checked where it must be: a file from a watch folder is transcribed where it lies, so
 * between the watcher's look at it and the job's run (a queue may hold it for hours) it could be swapped for a
 * symbolic link to any file this process can read. A job whose input names the folder it must stay inside
 * (`fileRoot`) refuses a path that is a link, or that reaches the file through a linked folder, with
 * `symlink_refused` — watch folders never follow links (docs/watch-folders.md).
 */
import { lstat, realpath } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { JobError } from '../../common/errors.js';
import type { EngineInput } from '../engine-types.js';

/** Why `path` may not be read as a file inside `root`, or null when it is a plain file reached without links. */
export async function linkProblem(root: string, path: string): Promise<string | null> {
  const below = relative(root, path);
  if (below === '' || below.startsWith('..')) return `${path} is not inside ${root}`;
  const info = await lstat(path);
  if (info.isSymbolicLink()) return `${path} is a symbolic link; watch folders do not follow links (copy the recording into the folder instead)`;
  const [realRoot, realPath] = await Promise.all([realpath(root), realpath(path)]);
  if (realPath !== join(realRoot, below)) return `${path} is reached through a linked folder; watch folders do not follow links (copy the recording into the folder instead)`;
  return null;
}

/** The job's input file, after the check above when the input names its folder. */
export async function inputFile(input: EngineInput, missing: () => JobError): Promise<string> {
  const file = input.filePath;
  if (!file) throw missing();
  if (input.fileRoot) {
    const problem = await linkProblem(input.fileRoot, file).catch((error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' ? `${file} no longer exists` : `${file} cannot be read: ${error.message}`,
    );
    if (problem) throw new JobError('symlink_refused', problem);
  }
  return file;
}
