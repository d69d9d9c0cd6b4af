/**
 * The one logger's line format (ServiceConfig.log): `text` writes the message as it is, one line on stderr (what a
 * person at a terminal reads, and what the desktop app and a plain `voxdesk serve` always wrote); `json` writes one
 * JSON object per line — `{"time", "level", "role", "node", "msg"}` — for a cluster's log collector
 * (`--log-format json` or VOXDESK_LOG_FORMAT=json). Lines that start with "warning"/"error"-like words are not
 * guessed at: every line is level "info" except those the caller marks.
 */
export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
export const LOG_FORMAT_ENV = 'VOXDESK_LOG_FORMAT';

/** The option, else $VOXDESK_LOG_FORMAT, else text; anything else throws with what is accepted. */
export function chooseLogFormat(option: string | undefined, env: NodeJS.ProcessEnv = process.env): LogFormat {
  const given = option?.trim() || env[LOG_FORMAT_ENV]?.trim() || 'text';
  if (!(LOG_FORMATS as readonly string[]).includes(given)) {
    const from = option?.trim() ? '--log-format' : LOG_FORMAT_ENV;
    throw new Error(`${from} must be one of ${LOG_FORMATS.join(', ')}, got ${JSON.stringify(given)}`);
  }
  return given as LogFormat;
}

export interface LogFields {
  role: string;
  node?: string;
}

/** A logger writing one line per message to `write` (default stderr) in `format`. */
export function lineLogger(format: LogFormat, fields: LogFields, write: (line: string) => void = (line) => process.stderr.write(line)): (message: string, level?: 'info' | 'error') => void {
  if (format === 'text') return (message) => write(`${message}\n`);
  return (message, level = 'info') => write(`${JSON.stringify({ time: new Date().toISOString(), level, ...fields, msg: message })}\n`);
}
