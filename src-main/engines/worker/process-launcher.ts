/**
 * How a pool starts a child process that runs one of our modules and talks to it by messages. The engines and the
 * job engine never care who starts it: under Node (`voxdesk serve`, the CLI, tests) it is `child_process.fork`
 * (forkLauncher below); inside the Electron app it is Electron's `utilityProcess.fork`, supplied by src-main/app
 * (utility-process-launcher.ts), because the packaged app turns the RunAsNode fuse off and `fork` of the Electron
 * binary then no longer starts Node. The child side of the same contract is parent-link.ts.
 *
 * Messages are structured clones on both paths (fork uses `serialization: 'advanced'`, as utility processes do), so
 * typed arrays and `undefined` cross the same way whichever launcher runs.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';

/** Where a child's stdout and stderr go. */
export type ChildOutput =
  /** Dropped. */
  | 'ignore'
  /** Appended to this file (created when missing). */
  | { file: string }
  /** Handed over as text, chunk by chunk (diagnostics for the caller's log). */
  | { text: (chunk: string) => void };

export interface LaunchSpec {
  /** The module the child runs (compiled JS, or TypeScript with a loader in `execArgv`). */
  modulePath: string;
  /** Runtime flags of the child, e.g. `['--import', tsx]` in a checkout. Default none. */
  execArgv?: string[];
  /** The child's environment. Default: this process's. */
  env?: NodeJS.ProcessEnv;
  /** Default 'ignore'. */
  output?: ChildOutput;
  /** A name for diagnostics (Electron shows it in its process metrics). */
  name: string;
}

export interface ChildEvents {
  message(message: unknown): void;
  /**
   * Called once, when the child is gone or can no longer be used, with how it ended in words that follow "the
   * process …": "exited with code 1", "was killed by signal SIGSEGV", "could not be reached: …".
   */
  ended(how: string): void;
}

export interface LaunchedChild {
  /** The OS process id; undefined until the child has started, and after it ended. */
  readonly pid: number | undefined;
  /** Sends a message; a child that cannot receive it any more is reported through `ended`. */
  send(message: unknown): void;
  /** Ends the child at once (SIGKILL on POSIX); `ended` follows. */
  kill(): void;
}

/** Starts a child; `events` are only ever called after it has returned. */
export type ProcessLauncher = (spec: LaunchSpec, events: ChildEvents) => LaunchedChild;

/**
 * How long a forked child that closed its IPC channel may linger before it is killed. The exit usually follows at
 * once and says why (signal, code); a child that stays alive without a channel is of no use. Default 1 s.
 */
const DISCONNECT_GRACE_MS = 1000;

/** `child_process.fork`: the launcher of `voxdesk serve`, the CLI and the tests. */
export const forkLauncher: ProcessLauncher = (spec, events) => {
  const output = spec.output ?? 'ignore';
  // Logs live in the private data dir: created 0600 (store/private-files.ts).
  const fd = typeof output === 'object' && 'file' in output ? openSync(output.file, 'a', 0o600) : null;
  const stdio = fd !== null ? fd : typeof output === 'object' ? 'pipe' : 'ignore';
  let child: ChildProcess;
  try {
    child = fork(spec.modulePath, [], {
      execArgv: spec.execArgv ?? [],
      env: spec.env ?? process.env,
      serialization: 'advanced',
      stdio: ['ignore', stdio, stdio, 'ipc'],
    });
  } finally {
    if (fd !== null) closeSync(fd);
  }
  if (typeof output === 'object' && 'text' in output) {
    const forward = (chunk: Buffer): void => output.text(chunk.toString());
    child.stdout?.on('data', forward);
    child.stderr?.on('data', forward);
  }
  let over = false;
  const end = (how: string): void => {
    if (over) return;
    over = true;
    events.ended(how);
  };
  const alive = (): boolean => child.exitCode === null && child.signalCode === null;
  child.on('message', (message: unknown) => {
    if (!over) events.message(message);
  });
  child.on('exit', (code, signal) => end(signal ? `was killed by signal ${signal}` : `exited with code ${code}`));
  child.on('error', (error) => {
    end(`failed: ${error.message}`);
    if (alive()) child.kill('SIGKILL');
  });
  child.on('disconnect', () => {
    setTimeout(() => {
      if (over || !alive()) return;
      end('closed its IPC channel');
      child.kill('SIGKILL');
    }, DISCONNECT_GRACE_MS).unref();
  });
  return {
    get pid() {
      return alive() ? child.pid : undefined;
    },
    send(message) {
      if (over) return;
      if (!child.connected) return void end('could not be reached: its IPC channel is closed');
      child.send(message as Parameters<ChildProcess['send']>[0], (error) => {
        if (!error || over) return;
        end(`could not be reached: ${error.message}`);
        if (alive()) child.kill('SIGKILL');
      });
    },
    kill() {
      if (alive()) child.kill('SIGKILL');
    },
  };
};
