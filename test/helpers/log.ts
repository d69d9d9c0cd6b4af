/** A `Log` for tests that read what was logged: each line's message lands in `lines`, whatever its level or scope. */
import { createLog, type Log } from '../../src-main/common/log.js';

export function logInto(lines: string[]): Log {
  return createLog((line) => void lines.push(line.message));
}
