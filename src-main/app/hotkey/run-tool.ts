/**
 * Runs a desktop tool (xdotool, xclip, wtype, osascript, …) with text on stdin and a time limit, rejecting with the
 * tool's own words — or, when it is not installed, with the package that has it. A tool that forks a server and
 * exits (`xclip -i`, `wl-copy`: the server keeps the selection) is `forks: true`: it is done when it exits, and its
 * output is not read, since the server it leaves holds the output pipes open for as long as it serves.
 */
import { spawn } from 'node:child_process';
import { InsertionError } from './text-insertion.js';

/** How long one tool may take. Default 5 s. */
export const TOOL_TIMEOUT_MS = 5_000;

export function runTool(command: string, args: string[], options: { env: NodeJS.ProcessEnv; input?: string | Buffer; packageName: string; forks?: boolean }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env, stdio: options.forks ? ['pipe', 'ignore', 'ignore'] : ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), TOOL_TIMEOUT_MS);
    child.stdout?.on('data', (c: Buffer) => out.push(c));
    child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error.code === 'ENOENT' ? new InsertionError(`${command} is not installed (package ${options.packageName})`) : error);
    });
    child.on(options.forks ? 'exit' : 'close', (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`${command} ${signal ? `was stopped (${signal})` : `exited ${code}`}${err.trim() ? `: ${err.trim()}` : ''}`));
    });
    child.stdin!.on('error', () => {});
    child.stdin!.end(options.input ?? '');
  });
}

/** Whether a program is on the PATH. */
export async function hasTool(command: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  try {
    await runTool('sh', ['-c', `command -v ${command}`], { env, packageName: 'sh' });
    return true;
  } catch {
    return false;
  }
}
