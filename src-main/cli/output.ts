/**
 * What a command tells the person at the terminal, apart from its result on stdout: warnings, progress, where a file
 * went, why it stopped. This is output, not logging — it is worded for the person and always written, whatever the
 * log format — so it is the one place of the CLI that writes to stderr itself (diagnostics go through a Log).
 */

/** The stream of the person's messages and progress bars. */
export const personStream: NodeJS.WriteStream = process.stderr;

/** Writes one line for the person (a newline is added). */
export function tell(line: string): void {
  personStream.write(`${line}\n`);
}
