/**
 * Checks the body of `PUT /v1/settings/watch-folders` (`{"folders":[{path, model, params?, output_dir?, formats}]}`)
 * the way a job request is checked, and names the folder in every refusal (`folders[1].model …`): an unknown model
 * is 400 invalid_request, a model of another product 400 invalid_params, an unavailable one 422 model_unavailable,
 * params are validated against the model's schema (400 invalid_params / unsupported_param), an unknown field is 400
 * unsupported_param (`status` is read-only). Paths must be absolute. A folder added by this PUT must exist and be a
 * folder (400 folder_missing / folder_not_directory: someone who typed a wrong path is told at once, not shown
 * "added"); one already saved may be missing meanwhile (a recorder unplugged): its status shows it, and it is watched
 * again once it is back. The same folder twice, or one folder inside another (its files would be seen twice), is
 * refused.
 */
import { refuseUnknownFields } from '../../common/unknown-fields.js';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { ApiError } from '../../common/errors.js';
import { MAX_WATCH_FOLDERS } from '../../common/limits.js';
import { TRANSCRIPT_FORMATS } from '../../common/transcript-formats.js';
import { folderProblem } from '../../watch/folder-watch.js';
import type { WatchFolderConfig } from '../../watch/watch-folder-config.js';
import type { AppDeps } from '../app-deps.js';
import { paramsField } from '../params/params-validator.js';
import { resolveForProduct, validateParams } from '../routes/submission.js';

const FOLDER_FIELDS = ['path', 'model', 'params', 'output_dir', 'formats'] as const;

/** The same ApiError with the folder named at the start of its message. */
function within(where: string, fn: () => void): void {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) throw new ApiError(error.code, `${where}: ${error.message}`, { cause: error });
    throw error;
  }
}

function absolutePath(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ApiError('invalid_request', `${field} must be a non-empty string (an absolute folder path)`);
  if (value.includes('\0')) throw new ApiError('invalid_request', `${field} must not contain a NUL character`);
  if (!isAbsolute(value)) throw new ApiError('invalid_request', `${field} must be an absolute path (got ${JSON.stringify(value)})`);
  return resolve(value);
}

function formatsOf(value: unknown, where: string): string[] {
  const choices = TRANSCRIPT_FORMATS.join(', ');
  if (!Array.isArray(value) || value.length === 0) {
    throw new ApiError('invalid_request', `${where}.formats must be a non-empty array of export formats (${choices})`);
  }
  const seen = new Set<string>();
  value.forEach((format: unknown, j) => {
    if (typeof format !== 'string' || !(TRANSCRIPT_FORMATS as readonly string[]).includes(format)) {
      throw new ApiError('invalid_request', `${where}.formats[${j}] must be one of ${choices} (got ${JSON.stringify(format)})`);
    }
    if (seen.has(format)) throw new ApiError('invalid_request', `${where}.formats lists ${format} twice`);
    seen.add(format);
  });
  return [...seen];
}

function folderOf(deps: AppDeps, raw: unknown, i: number): WatchFolderConfig {
  const where = `folders[${i}]`;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ApiError('invalid_request', `${where} must be an object {path, model, params?, output_dir?, formats}`);
  }
  const folder = raw as Record<string, unknown>;
  if ('status' in folder) {
    throw new ApiError('unsupported_param', `${where}.status is read-only (GET shows it); a folder takes ${FOLDER_FIELDS.join(', ')}`);
  }
  refuseUnknownFields(folder, FOLDER_FIELDS, `${where}.`, 'a watch folder');
  const path = absolutePath(folder.path, `${where}.path`);
  const model = folder.model;
  if (model === undefined || model === null || model === '') throw new ApiError('model_required', `${where}.model is required (a speech-to-text model id from GET /v1/models)`);
  if (typeof model !== 'string') throw new ApiError('invalid_request', `${where}.model must be a string`);
  let params: Record<string, unknown> = {};
  within(where, () => {
    params = paramsField(folder.params);
    validateParams(deps, resolveForProduct(deps, model, 'speech-to-text'), params);
  });
  const outputDir = folder.output_dir === undefined || folder.output_dir === null ? null : absolutePath(folder.output_dir, `${where}.output_dir`);
  return { path, model, params, output_dir: outputDir, formats: formatsOf(folder.formats, where) };
}

function inside(parent: string, child: string): boolean {
  const below = relative(parent, child);
  return below !== '' && !below.startsWith(`..${sep}`) && below !== '..' && !isAbsolute(below);
}

export function parseWatchFolders(deps: AppDeps, body: Record<string, unknown>): WatchFolderConfig[] {
  refuseUnknownFields(body, ['folders']);
  const raw = body.folders;
  if (!Array.isArray(raw)) throw new ApiError('invalid_request', 'folders is required: an array of {path, model, params?, output_dir?, formats} ([] stops watching)');
  if (raw.length > MAX_WATCH_FOLDERS) throw new ApiError('invalid_request', `at most ${MAX_WATCH_FOLDERS} watch folders; got ${raw.length}`);
  const folders = raw.map((folder: unknown, i) => folderOf(deps, folder, i));
  folders.forEach((a, i) =>
    folders.forEach((b, j) => {
      if (i < j && a.path === b.path) throw new ApiError('invalid_request', `folders[${j}].path ${b.path} is already folders[${i}]`);
      if (i !== j && inside(a.path, b.path)) {
        throw new ApiError('invalid_request', `folders[${j}].path ${b.path} is inside folders[${i}].path ${a.path} (its files are already watched there)`);
      }
    }),
  );
  return folders;
}

/** Refuses a folder that is new in this list (not among `saved`) and does not exist, or is a file, naming it. */
export async function refuseMissingNewFolders(folders: readonly WatchFolderConfig[], saved: readonly { path: string }[]): Promise<void> {
  const known = new Set(saved.map((f) => f.path));
  for (const [i, folder] of folders.entries()) {
    if (known.has(folder.path)) continue;
    const problem = await folderProblem(folder.path);
    if (problem?.code === 'folder_missing') {
      throw new ApiError('folder_missing', `folders[${i}].path ${folder.path} does not exist: create the folder (or plug in the drive it is on), then add it`);
    }
    if (problem?.code === 'folder_not_directory') throw new ApiError('folder_not_directory', `folders[${i}].path ${folder.path} is a file, not a folder`);
  }
}
