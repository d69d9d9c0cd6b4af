/**
 * Where curated model files are downloaded from, for networks that cannot reach the upstream hosts (GitHub,
 * Hugging Face): a model mirror rewrites every curated URL (same bytes, same sha256 pins), and an extra CA file is
 * trusted for TLS. Both are settings (`models.mirror`, `models.ca_file`; the Models tab, `voxdesk serve
 * --model-mirror/--ca-file`), with `VOXDESK_MODEL_MIRROR` / `VOXDESK_CA_FILE` as the fallback when unset. Proxies
 * come from the standard variables (see download-network.ts). Failures get a hint naming what to set.
 */
import { basename, isAbsolute } from 'node:path';
import { loadCaFile, redactProxy } from './download-network.js';
import { refuseUnknownFields } from '../../common/unknown-fields.js';
import { ApiError, type PackageError } from '../../common/errors.js';

export const MIRROR_SETTING = 'models.mirror';
export const CA_FILE_SETTING = 'models.ca_file';

/** Placeholders a mirror URL may hold; without any, files are fetched from `MIRROR/<package id>/<file name>`. */
export const MIRROR_PLACEHOLDERS = ['{id}', '{file}', '{url}', '{host}', '{path}'] as const;

/**
 * Checks a mirror base URL and returns it without trailing slashes. It is an http(s) URL, either a plain base
 * (`https://models.example.com/voxdesk` → `…/voxdesk/<package id>/<file>`) or a template with placeholders:
 * {id} the package id, {file} the file name, {url} the whole upstream URL, {host} its host, {path} its path
 * without the leading slash — e.g. `https://artifacts.example.com/github/{path}` for a repository manager proxying
 * github.com, or `https://hf-mirror.example/{path}` for a Hugging Face mirror. Throws an Error saying what is wrong.
 */
export function normaliseMirror(input: string): string {
  const value = input.trim();
  const probe = value.replace(/\{(id|file|url|host|path)\}/g, 'x');
  if (/[{}]/.test(probe)) throw new Error(`the model mirror ${value} has an unknown placeholder (known: ${MIRROR_PLACEHOLDERS.join(' ')})`);
  let url: URL;
  try {
    url = new URL(probe);
  } catch {
    throw new Error(`the model mirror must be an http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`the model mirror must be an http(s) URL, got ${url.protocol} (${value})`);
  if (url.search || url.hash) throw new Error(`the model mirror ${value} must not have a query or fragment`);
  return value.replace(/\/+$/, '');
}

/** The URL a curated file is fetched from through `mirror` (see normaliseMirror). */
export function mirroredUrl(mirror: string, packageId: string, upstream: string): string {
  const up = new URL(upstream);
  const file = basename(up.pathname);
  if (!/\{(id|file|url|host|path)\}/.test(mirror)) return `${mirror.replace(/\/+$/, '')}/${packageId}/${file}`;
  return mirror
    .replaceAll('{id}', packageId)
    .replaceAll('{file}', file)
    .replaceAll('{url}', upstream)
    .replaceAll('{host}', up.host)
    .replaceAll('{path}', up.pathname.replace(/^\/+/, ''));
}

const WHERE_MIRROR = 'Models tab → Download source, `voxdesk serve --model-mirror URL` or VOXDESK_MODEL_MIRROR';
const WHERE_CA = 'Models tab → Download source, `--ca-file FILE`, VOXDESK_CA_FILE or NODE_EXTRA_CA_CERTS';

/**
 * A sentence to add to a failed download's message: what the person can set so that the next attempt works.
 * `mirror` is the mirror the failed URL came from (null: the upstream host).
 */
export function downloadHint(error: PackageError, mirror: string | null): string {
  const host = error.host ?? 'the server';
  switch (error.problem) {
    case 'tls':
      return ` If your network inspects TLS, trust its CA certificate (${WHERE_CA}).`;
    case 'proxy_auth':
      return '';
    case 'unreachable':
    case 'http':
      if (mirror) return ` The file came from the model mirror ${mirror}: check that it serves ${host === 'the server' ? 'the file' : 'this file'} (${WHERE_MIRROR}).`;
      return ` If ${host} is blocked or unreachable from this network, set a model mirror (${WHERE_MIRROR}) or a proxy (HTTPS_PROXY).`;
    default:
      return '';
  }
}

/** Where a download setting's value came from. */
export type SettingOrigin = 'option' | 'setting' | 'environment' | null;

export interface DownloadSource {
  mirror: { value: string | null; from: SettingOrigin };
  caFile: { value: string | null; from: SettingOrigin };
}

/**
 * The mirror and CA file in force: an explicit per-run value (the models command's flags) first, then the settings,
 * then VOXDESK_MODEL_MIRROR / VOXDESK_CA_FILE.
 */
export async function currentDownloadSource(
  settings: { get<T>(key: string): Promise<T | undefined> },
  overrides: { mirror?: string | null; caFile?: string | null } = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<DownloadSource> {
  const pick = async (override: string | null | undefined, key: string, variable: string): Promise<DownloadSource['mirror']> => {
    if (override !== undefined) return { value: override, from: override ? 'option' : null };
    const stored = await settings.get<unknown>(key);
    if (typeof stored === 'string' && stored) return { value: stored, from: 'setting' };
    const fromEnv = env[variable];
    return fromEnv ? { value: fromEnv, from: 'environment' } : { value: null, from: null };
  };
  return {
    mirror: await pick(overrides.mirror, MIRROR_SETTING, 'VOXDESK_MODEL_MIRROR'),
    caFile: await pick(overrides.caFile, CA_FILE_SETTING, 'VOXDESK_CA_FILE'),
  };
}

/** GET /v1/settings/models: the download source in force, with where each value comes from, and the proxies. */
export interface DownloadSettingsView {
  mirror: string | null;
  mirror_from: SettingOrigin;
  ca_file: string | null;
  ca_file_from: SettingOrigin;
  /** The proxy variables of the service's environment (read only; credentials removed). */
  proxy: { https: string | null; http: string | null; no_proxy: string | null };
}

export function downloadSettingsView(source: DownloadSource, env: NodeJS.ProcessEnv = process.env): DownloadSettingsView {
  const variable = (name: string) => env[name] || env[name.toLowerCase()] || null;
  const redacted = (value: string | null) => (value ? redactProxy(value) : null);
  return {
    mirror: source.mirror.value,
    mirror_from: source.mirror.from,
    ca_file: source.caFile.value,
    ca_file_from: source.caFile.from,
    proxy: {
      https: redacted(variable('HTTPS_PROXY') ?? variable('ALL_PROXY')),
      http: redacted(variable('HTTP_PROXY') ?? variable('ALL_PROXY')),
      no_proxy: variable('NO_PROXY'),
    },
  };
}

/**
 * Applies a PUT /v1/settings/models body `{mirror?, ca_file?}` (omitted: kept; null or '': cleared, so the
 * environment's value applies again) after checking it. Throws ApiError (invalid_request, unsupported_param) naming the problem.
 */
export async function saveDownloadSettings(settings: { set(key: string, value: unknown): Promise<void>; delete(key: string): Promise<boolean> }, body: Record<string, unknown>): Promise<void> {
  refuseUnknownFields(body, ['mirror', 'ca_file'], '', 'the download settings');
  const text = (field: string): string | null | undefined => {
    const value = body[field];
    if (value === undefined || value === null) return value;
    if (typeof value !== 'string') throw new ApiError('invalid_request', `${field} must be a string or null`);
    return value.trim() === '' ? null : value.trim();
  };
  const mirror = text('mirror');
  const caFile = text('ca_file');
  let checkedMirror: string | null | undefined = mirror;
  if (mirror) {
    try {
      checkedMirror = normaliseMirror(mirror);
    } catch (cause) {
      throw new ApiError('invalid_request', (cause as Error).message);
    }
  }
  if (caFile) {
    if (!isAbsolute(caFile)) throw new ApiError('invalid_request', `ca_file must be an absolute path, got ${caFile}`);
    try {
      await loadCaFile(caFile);
    } catch (cause) {
      throw new ApiError('invalid_request', (cause as Error).message);
    }
  }
  if (checkedMirror !== undefined) {
    if (checkedMirror === null) await settings.delete(MIRROR_SETTING);
    else await settings.set(MIRROR_SETTING, checkedMirror);
  }
  if (caFile !== undefined) {
    if (caFile === null) await settings.delete(CA_FILE_SETTING);
    else await settings.set(CA_FILE_SETTING, caFile);
  }
}
