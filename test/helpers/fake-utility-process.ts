/**
 * A stand-in for Electron's `utilityProcess` (the Electron binary cannot run here): the one faked boundary of the
 * app's worker launcher. Children are real Node processes (child_process.fork) that see `process.parentPort` as in
 * a utility process (utility-parent-port.mjs); the parent side has UtilityProcess's shape and behaviour: `spawn`,
 * `message` and `exit` events, a `pid` only while running, piped or ignored stdout/stderr, `postMessage` (queued
 * before the spawn), and `kill()` as SIGTERM. A death by signal is reported as exit code 128 + the signal number, as a shell would.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { constants } from 'node:os';
import type { Readable } from 'node:stream';
import type { UtilityChild, UtilityProcessApi } from '../../src-main/app/utility-process-launcher.js';

const SHIM = new URL('./utility-parent-port.mjs', import.meta.url).href;

export interface FakeUtilityProcess extends UtilityProcessApi {
  /** Every fork so far: module, options and the child. */
  readonly forks: { modulePath: string; options: Parameters<UtilityProcessApi['fork']>[2]; child: UtilityChild }[];
}

class FakeUtilityChild extends EventEmitter {
  private running = false;
  private exited = false;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;

  constructor(private readonly proc: ChildProcess) {
    super();
    this.stdout = proc.stdout;
    this.stderr = proc.stderr;
    proc.on('spawn', () => {
      this.running = true;
      this.emit('spawn');
    });
    proc.on('message', (message) => this.emit('message', message));
    proc.on('exit', (code, signal) => {
      this.running = false;
      this.exited = true;
      this.emit('exit', code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  }

  get pid(): number | undefined {
    return this.running ? this.proc.pid : undefined;
  }

  postMessage(message: unknown): void {
    // Like Electron's, a message posted before the spawn is queued; after the exit there is nobody to read it.
    if (this.exited) throw new Error('the process has exited');
    this.proc.send(message as Parameters<ChildProcess['send']>[0]);
  }

  kill(): boolean {
    return this.proc.kill('SIGTERM');
  }
}

export function fakeUtilityProcess(): FakeUtilityProcess {
  const forks: FakeUtilityProcess['forks'] = [];
  return {
    forks,
    fork(modulePath, args, options) {
      const stdio = options.stdio === 'pipe' ? 'pipe' : 'ignore';
      const proc = fork(modulePath, args, {
        execArgv: ['--import', SHIM, ...(options.execArgv ?? [])],
        env: options.env,
        serialization: 'advanced',
        stdio: ['ignore', stdio, stdio, 'ipc'],
      });
      const child = new FakeUtilityChild(proc);
      forks.push({ modulePath, options, child });
      return child;
    },
  };
}
