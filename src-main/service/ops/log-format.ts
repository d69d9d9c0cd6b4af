/**
 * Which log line format a process writes (`--log-format` or VOXDESK_LOG_FORMAT): `text` for a person at a terminal
 * (what the desktop app and a plain `voxdesk serve` always wrote), `json` for a cluster's log collector. The formats
 * themselves are the sinks of common/log-sinks.ts; this file only chooses one.
 */
import { jsonSink, textSink, type LineWriter, type ProcessFields, type TextSinkOptions } from '../../common/log-sinks.js';
import type { LogSink } from '../../common/log.js';

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

/** The sink of `format`: JSON lines carry `fields`; text lines are the message (with `text`'s options). */
export function sinkFor(format: LogFormat, fields: ProcessFields, write?: LineWriter, text: TextSinkOptions = {}): LogSink {
  return format === 'json' ? jsonSink(fields, write) : textSink({ ...text, ...(write ? { write } : {}) });
}
