/**
 * The engines' ProcessLauncher inside the Electron app: Electron's `utilityProcess.fork`. The packaged app turns the
 * RunAsNode fuse off (electron-builder.yml), so `child_process.fork` of the app's own binary no longer starts Node;
 * a utility process is Electron's supported way to run a Node child. Its child side is engines/worker/parent-link.ts.
 *
 * Written against the shape of `utilityProcess` rather than the module, so it is unit-tested under plain Node with a
 * stand-in for that one object (test/unit/app/utility-process-launcher.test.ts).
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { ChildEvents, LaunchedChild, LaunchSpec, ProcessLauncher } from '../engines/worker/process-launcher.js';

/** What this module uses of an Electron `UtilityProcess`. */
export interface UtilityChild {
  readonly pid: number | undefined;
  readonly stdout: Readable | NodeJS.ReadableStream | null;
  readonly stderr: Readable | NodeJS.ReadableStream | null;
  postMessage(message: unknown): void;
  kill(): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  on(event: 'error', listener: (type: string, location: string) => void): unknown;
  on(event: 'spawn', listener: () => void): unknown;
}

/** What this module uses of Electron's `utilityProcess`. */
export interface UtilityProcessApi {
  fork(
    modulePath: string,
    args: string[],
    options: { env?: NodeJS.ProcessEnv; execArgv?: string[]; stdio?: 'ignore' | 'pipe'; serviceName?: string },
  ): UtilityChild;
}

export function utilityProcessLauncher(utility: UtilityProcessApi): ProcessLauncher {
  return (spec: LaunchSpec, events: ChildEvents): LaunchedChild => {
    const output = spec.output ?? 'ignore';
    const child = utility.fork(spec.modulePath, [], {
      env: spec.env ?? process.env,
      execArgv: spec.execArgv ?? [],
      stdio: output === 'ignore' ? 'ignore' : 'pipe',
      serviceName: spec.name,
    });
    let log: WriteStream | null = null;
    if (typeof output === 'object' && 'file' in output) {
      log = createWriteStream(output.file, { flags: 'a' });
      log.on('error', () => {}); // the log is diagnostics only
      child.stdout?.pipe(log, { end: false });
      child.stderr?.pipe(log, { end: false });
    } else if (typeof output === 'object') {
      const forward = (chunk: Buffer | string): void => output.text(chunk.toString());
      child.stdout?.on('data', forward);
      child.stderr?.on('data', forward);
    }
    let over = false;
    let fatal = '';
    let killWhenSpawned = false;
    const end = (how: string): void => {
      if (over) return;
      over = true;
      log?.end();
      events.ended(how);
    };
    child.on('message', (message) => {
      if (!over) events.message(message);
    });
    // Fatal V8 errors come before the exit (which always follows): say where in the exit's description.
    child.on('error', (type, location) => (fatal = ` after a ${type} at ${location}`));
    child.on('exit', (code) => end(`exited with code ${code}${fatal}`));
    // `UtilityProcess.kill()` is SIGTERM; a worker stuck in native inference must stop now, as under fork.
    const killNow = (): void => {
      const pid = child.pid;
      if (pid === undefined) return void (killWhenSpawned = true);
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        child.kill();
      }
    };
    child.on('spawn', () => {
      if (killWhenSpawned) killNow();
    });
    return {
      get pid() {
        return over ? undefined : child.pid;
      },
      send(message) {
        if (over) return;
        try {
          child.postMessage(message);
        } catch (error) {
          end(`could not be reached: ${(error as Error).message}`);
          killNow();
        }
      },
      kill() {
        if (!over) killNow();
      },
    };
  };
}
