/**
 * The one way to log (docs/design.md, house rules). A module takes a `Log` — usually its owner's `log.child('watch')`
 * — and writes `log.info / warn / error(message, fields?)`; it never formats a line or picks a stream. The `LogSink`
 * given to `createLog` is the one place a line is formatted and written (common/log-sinks.ts: plain text for a person
 * at a terminal, one JSON object per line for a cluster's collector), so a process chooses its format once, at its
 * entry point, and every module's lines follow it. Tests pass `silentLog`, or a sink that keeps the lines to read.
 */

export type LogLevel = 'info' | 'warn' | 'error';

/** Structured extras of a line (a job id, a model id): JSON lines carry them as keys; plain text leaves them out. */
export type LogFields = Readonly<Record<string, unknown>>;

/** One line as the sink receives it. `scope` is the dotted path of `child` names ("service.watch"), null at the root. */
export interface LogLine {
  readonly level: LogLevel;
  readonly scope: string | null;
  readonly message: string;
  readonly fields: LogFields | undefined;
  readonly time: Date;
}

/** Formats and writes one line; the only code that knows where lines go. */
export type LogSink = (line: LogLine) => void;

export interface Log {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** The logger of a part of this one's owner: its lines carry `scope` (appended to this logger's own). */
  child(scope: string): Log;
}

/** A logger writing every line to `sink`, under `scope` (none at the root). */
export function createLog(sink: LogSink, scope: string | null = null): Log {
  const write = (level: LogLevel) => (message: string, fields?: LogFields): void => {
    sink({ level, scope, message, fields, time: new Date() });
  };
  return {
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (name) => createLog(sink, scope ? `${scope}.${name}` : name),
  };
}

/** A logger that writes nothing: for tests and for parts whose owner gave none. */
export const silentLog: Log = createLog(() => {});

/**
 * `log`, with every message starting with `prefix` (a sub-run's lines inside its job's log, "reference transcript:
 * …"): for wording a person already reads, where a scope would only show in JSON lines.
 */
export function prefixedLog(log: Log, prefix: string): Log {
  return {
    info: (message, fields) => log.info(`${prefix}${message}`, fields),
    warn: (message, fields) => log.warn(`${prefix}${message}`, fields),
    error: (message, fields) => log.error(`${prefix}${message}`, fields),
    child: (scope) => prefixedLog(log.child(scope), prefix),
  };
}
