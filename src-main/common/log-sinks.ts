/**
 * The log line formats (ServiceConfig.log, `--log-format`): the only place a log line is formatted and written to a
 * stream. `text` writes the message as it is, one line on stderr — what a person at a terminal reads, and what the
 * desktop app and a plain `voxdesk serve` always wrote — optionally after a timestamp and the scope; `json` writes one
 * JSON object per line, `{"time", "level", "role", "node", "scope", "msg", ...fields}`, for a cluster's log collector.
 * Lines are not guessed at: the level is the one the caller chose (`log.info / warn / error`).
 */
import type { LogFields, LogLevel, LogSink } from './log.js';

/** Where lines go: stderr unless told (the first stdout line of `voxdesk serve` is a contract; logs never use stdout). */
export type LineWriter = (line: string) => void;
const stderr: LineWriter = (line) => process.stderr.write(line);

export interface TextSinkOptions {
  /** Starts each line with `[ISO time] ` (a long-running `voxdesk serve`, an engine worker). Default false. */
  timestamps?: boolean;
  /** Starts each line with `scope: ` when it has one (a worker process's job id, the remote runner). Default false. */
  scopes?: boolean;
  write?: LineWriter;
}

/** Plain lines: the message, as it is. */
export function textSink(options: TextSinkOptions = {}): LogSink {
  const write = options.write ?? stderr;
  return (line) => {
    const time = options.timestamps ? `[${line.time.toISOString()}] ` : '';
    const scope = options.scopes && line.scope ? `${line.scope}: ` : '';
    write(`${time}${scope}${line.message}\n`);
  };
}

const LEVELS: readonly LogLevel[] = ['info', 'warn', 'error'];

/**
 * `sink` given only the lines at `level` or above: a command's in-process service (`voxdesk transcribe`, `speak`)
 * says what went wrong and nothing else, so the person's terminal shows the answer, not the service's routine.
 */
export function atLeast(level: LogLevel, sink: LogSink): LogSink {
  const lowest = LEVELS.indexOf(level);
  return (line) => {
    if (LEVELS.indexOf(line.level) >= lowest) sink(line);
  };
}

/** The fields every JSON line of this process carries (its role in a cluster, its node). */
export interface ProcessFields {
  role: string;
  node?: string;
}

/** One JSON object per line: the process's fields, the level, the scope (when there is one), the message, its fields. */
export function jsonSink(processFields: ProcessFields, write: LineWriter = stderr): LogSink {
  return (line) => {
    const extra: LogFields = line.fields ?? {};
    write(`${JSON.stringify({ time: line.time.toISOString(), level: line.level, ...processFields, ...(line.scope ? { scope: line.scope } : {}), msg: line.message, ...extra })}\n`);
  };
}
