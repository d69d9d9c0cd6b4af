/** Parsers for command-line option values: a bad value stops the command with a clear message. */
import { InvalidArgumentError } from 'commander';

export function integerOption(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected an integer ${min}..${max}`);
    return n;
  };
}

export function numberOption(min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < min) throw new InvalidArgumentError(`expected a number ≥ ${min}`);
    return n;
  };
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
