/** Validation of every argument that crosses the preload bridge into the main process (never trust the page). */
import { isAbsolute } from 'node:path';
import { statSync } from 'node:fs';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../common/transcript-formats.js';
import { ApiError } from '../common/errors.js';
import { formatOneOf } from '../common/error-messages.js';

/** Longest text one live `speak` may carry over IPC. Default 20 000 characters. */
export const MAX_LIVE_TEXT = 20_000;

export function modelIdArg(value: unknown): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9._:@/-]{1,200}$/.test(value)) throw new ApiError('invalid_params', 'model id must be a catalogue id string');
  return value;
}

export function speedArg(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0.5 || value > 2) throw new ApiError('invalid_params', 'speed must be a number from 0.5 to 2');
  return value;
}

/** The live route's voice settings a page may pass (service/live/live-server.ts reads these from the query). */
export const LIVE_VOICE_SETTINGS = ['voice', 'speaker', 'language', 'pitch'] as const;

/** `{voice?, speaker?, language?, pitch?}` of short strings; anything else is refused (the service checks the values). */
export function liveVoiceArg(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new ApiError('invalid_params', 'voice settings must be an object of strings');
  const out: Record<string, string> = {};
  for (const [key, setting] of Object.entries(value)) {
    if (!(LIVE_VOICE_SETTINGS as readonly string[]).includes(key)) throw new ApiError('invalid_params', `unknown voice setting "${key}" (${LIVE_VOICE_SETTINGS.join(', ')})`);
    if (typeof setting !== 'string' || setting.length > 200) throw new ApiError('invalid_params', `voice setting ${key} must be a string of at most 200 characters`);
    out[key] = setting;
  }
  return out;
}

export function textArg(value: unknown): string {
  if (typeof value !== 'string' || !value.trim()) throw new ApiError('invalid_params', 'text must be a non-empty string');
  if (value.length > MAX_LIVE_TEXT) throw new ApiError('invalid_params', `text is longer than ${MAX_LIVE_TEXT} characters`);
  return value;
}

/** A job id as the service makes them (store/ids.ts): `job_` and letters or digits. */
export function jobIdArg(value: unknown): string {
  if (typeof value !== 'string' || !/^job_[A-Za-z0-9]{1,64}$/.test(value)) throw new ApiError('invalid_params', 'job id must be a job_… id');
  return value;
}

export function exportFormatArg(value: unknown): TranscriptFormat {
  if (typeof value !== 'string' || !(TRANSCRIPT_FORMATS as readonly string[]).includes(value)) {
    throw new ApiError('invalid_params', formatOneOf(TRANSCRIPT_FORMATS));
  }
  return value as TranscriptFormat;
}

/** Most files one addRecentFiles call may name. */
export const MAX_RECENT_FILES = 50;

/** Absolute paths of existing regular files (anything else is left out, never an error: a file may have moved). */
export function recentFilesArg(value: unknown): string[] {
  if (!Array.isArray(value) || value.length > MAX_RECENT_FILES) throw new ApiError('invalid_params', `paths must be a list of at most ${MAX_RECENT_FILES} file paths`);
  return value.filter((path): path is string => {
    if (typeof path !== 'string' || path.length > 4096 || !isAbsolute(path) || path.includes('\0')) return false;
    try {
      return statSync(path).isFile();
    } catch {
      return false;
    }
  });
}
