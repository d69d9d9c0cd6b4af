/**
 * A private X server (Xvfb) for the dictate-anywhere tests and benchmark. The keyboard hook (libuiohook) keeps a
 * connection to the display for the life of the process, and Xlib ends a process whose display goes away: so the
 * server outlives the test process — a small watchdog ends it once this process has exited.
 */
import { execFileSync, spawn } from 'node:child_process';
import { requireCommand } from './system.js';

export interface TestDisplay {
  display: string;
}

export async function startXvfb(): Promise<TestDisplay> {
  const xvfb = requireCommand('Xvfb', 'xvfb');
  requireCommand('xdpyinfo', 'x11-utils');
  const display = `:${90 + (process.pid % 400)}`;
  const server = spawn(xvfb, [display, '-screen', '0', '1024x768x24', '-nolisten', 'tcp'], { stdio: 'ignore', detached: true });
  server.unref();
  spawn('sh', ['-c', `while kill -0 ${process.pid} 2>/dev/null; do sleep 0.5; done; kill ${server.pid}`], { stdio: 'ignore', detached: true }).unref();
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      execFileSync('xdpyinfo', ['-display', display], { stdio: 'ignore' });
      return { display };
    } catch {
      if (Date.now() > deadline) throw new Error(`Xvfb did not answer on ${display} within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
