/** Validation of every argument that crosses the preload bridge into the main process (never trust the page). */

/** Longest text one live `speak` may carry over IPC. Default 20 000 characters. */
export const MAX_LIVE_TEXT = 20_000;

export class IpcInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IpcInputError';
  }
}

export function modelIdArg(value: unknown): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9._:@/-]{1,200}$/.test(value)) throw new IpcInputError('model id must be a catalogue id string');
  return value;
}

export function speedArg(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0.5 || value > 2) throw new IpcInputError('speed must be a number from 0.5 to 2');
  return value;
}

export function textArg(value: unknown): string {
  if (typeof value !== 'string' || !value.trim()) throw new IpcInputError('text must be a non-empty string');
  if (value.length > MAX_LIVE_TEXT) throw new IpcInputError(`text is longer than ${MAX_LIVE_TEXT} characters`);
  return value;
}
