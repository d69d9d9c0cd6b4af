/**
 * Models from any source: a package someone adds by URL and sha256 (POST /v1/local/models, `voxdesk models add`) is
 * checked here and becomes an OfferedPackage the manager downloads, resumes, verifies and extracts like a curated
 * one. The URL names the file kind: a `.tar.bz2`/`.tbz2` or `.tar.gz`/`.tgz` archive (sherpa-onnx's release format)
 * or a single `.onnx` model. The family is detected from the files unless given.
 */
import { basename } from 'node:path';
import { refuseUnknownFields } from '../../common/unknown-fields.js';
import { ApiError } from '../../common/errors.js';
import type { UrlPackageRow } from '../../store/models-repo.js';
import type { OfferedPackage, PackageFile } from './curated-models.js';
import { isModelFamily, MODEL_FAMILIES, type ModelFamily } from '../../common/model-families.js';
import { familyCapability } from '../family-engines.js';

export const MODEL_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const KINDS: Array<[RegExp, 'tar.bz2' | 'tar.gz' | 'onnx']> = [
  [/\.(tar\.bz2|tbz2)$/i, 'tar.bz2'],
  [/\.(tar\.gz|tgz)$/i, 'tar.gz'],
  [/\.onnx$/i, 'onnx'],
];

/**
 * The file name a URL's last path segment gives, decoded — or null when that name could reach outside the folder
 * it is saved in (`..%2F..%2Fx.onnx` decodes to a path, not a name) or is not a name at all.
 */
export function urlFileName(url: URL): string | null {
  let name: string;
  try {
    name = decodeURIComponent(url.pathname.split('/').pop() ?? '');
  } catch {
    return null; // a malformed %-escape
  }
  // eslint-disable-next-line no-control-regex
  if (name === '' || name === '.' || name === '..' || /[/\\\u0000-\u001f]/.test(name)) return null;
  return name;
}

/** What the URL's last path segment says the file is, or null. */
export function urlFileKind(url: URL): 'tar.bz2' | 'tar.gz' | 'onnx' | null {
  const name = urlFileName(url);
  return name === null ? null : (KINDS.find(([re]) => re.test(name))?.[1] ?? null);
}

/** The id a package gets from its URL when none is given: the file name without extensions, made safe. */
export function defaultUrlPackageId(url: string): string {
  let name = 'model';
  try {
    name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? 'model');
  } catch {
    // checked later
  }
  return (
    name
      .replace(/\.(tar\.bz2|tbz2|tar\.gz|tgz|onnx)$/i, '')
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[^a-z0-9]+/, '')
      .slice(0, 64) || 'model'
  );
}

export interface NewUrlPackage {
  id?: unknown;
  name?: unknown;
  url?: unknown;
  sha256?: unknown;
  size_bytes?: unknown;
  family?: unknown;
  languages?: unknown;
}

const bad = (message: string) => new ApiError('invalid_request', message);

/** Checks a request to add a package by URL (every field named in its error); the id is not checked for clashes here. */
export function checkUrlPackage(input: NewUrlPackage): Omit<UrlPackageRow<ModelFamily>, 'addedAt'> {
  refuseUnknownFields(input as unknown as Record<string, unknown>, ['id', 'name', 'url', 'sha256', 'size_bytes', 'family', 'languages'], '', 'a model added by URL');
  if (typeof input.url !== 'string' || input.url.trim() === '') throw bad('url is required: where the model file is downloaded from');
  let url: URL;
  try {
    url = new URL(input.url.trim());
  } catch {
    throw bad(`url is not a valid URL: ${input.url}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw bad(`url must be http(s), got ${url.protocol}`);
  if (urlFileName(url) === null) {
    throw bad(`url must end in a file name; its last part ${JSON.stringify(url.pathname.split('/').pop() ?? '')} decodes to a path or holds control characters`);
  }
  if (!urlFileKind(url)) throw bad(`url must name a .tar.bz2, .tar.gz (or .tgz) archive or an .onnx file, got ${basename(url.pathname) || url.pathname}`);
  if (typeof input.sha256 !== 'string' || !/^[0-9a-fA-F]{64}$/.test(input.sha256.trim())) {
    throw bad('sha256 is required: the 64 hex digits of the file (sha256sum FILE), so a tampered or broken download is refused');
  }
  const id = input.id === undefined || input.id === null ? defaultUrlPackageId(url.toString()) : input.id;
  if (typeof id !== 'string' || !MODEL_ID_PATTERN.test(id)) throw bad(`id ${JSON.stringify(id)} must be 1-64 characters of a-z, 0-9, '.', '_', '-'`);
  if (input.name !== undefined && input.name !== null && (typeof input.name !== 'string' || input.name.length > 200)) throw bad('name must be a string of at most 200 characters');
  let sizeBytes: number | null = null;
  if (input.size_bytes !== undefined && input.size_bytes !== null) {
    if (typeof input.size_bytes !== 'number' || !Number.isSafeInteger(input.size_bytes) || input.size_bytes <= 0) throw bad('size_bytes must be a positive integer');
    sizeBytes = input.size_bytes;
  }
  let family: ModelFamily | null = null;
  if (input.family !== undefined && input.family !== null && input.family !== '') {
    if (typeof input.family !== 'string' || !isModelFamily(input.family)) throw bad(`family must be one of ${MODEL_FAMILIES.join(', ')}`);
    family = input.family;
  }
  let languages: string[] = [];
  if (input.languages !== undefined && input.languages !== null) {
    if (!Array.isArray(input.languages) || input.languages.some((l) => typeof l !== 'string' || !/^[a-z]{2,3}(-[a-z0-9]+)*$/i.test(l))) {
      throw bad('languages must be an array of language codes (en, de, pt-br, …)');
    }
    languages = (input.languages as string[]).map((l) => l.toLowerCase());
  }
  const name = typeof input.name === 'string' && input.name.trim() ? input.name.trim() : id;
  return { id, name, url: url.toString(), sha256: input.sha256.trim().toLowerCase(), sizeBytes, family, languages };
}

/** The package the manager downloads for a row added by URL. */
export function offeredFromUrl(row: UrlPackageRow<ModelFamily>): OfferedPackage {
  const url = new URL(row.url);
  const kind = urlFileKind(url);
  // Rows stored before names were checked: a name that is a path is saved under a safe one.
  const name = urlFileName(url) ?? 'model.onnx';
  const file: PackageFile =
    kind === 'onnx'
      ? { url: row.url, sha256: row.sha256, sizeBytes: row.sizeBytes ?? 0, path: name }
      : { url: row.url, sha256: row.sha256, sizeBytes: row.sizeBytes ?? 0, path: '', extract: kind ?? 'tar.bz2' };
  return {
    source: 'url',
    id: row.id,
    name: row.name,
    description: `Added from ${url.host}: ${name}`,
    family: row.family,
    capability: row.family ? familyCapability(row.family) : null,
    languages: row.languages,
    licence: 'unknown (added by URL)',
    version: name,
    files: [file],
  };
}
