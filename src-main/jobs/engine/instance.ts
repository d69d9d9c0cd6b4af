/**
 * Which service instance runs a job (`jobs.claimed_by` = host:pid:random). On start, a job left `running` is
 * requeued only when its instance is gone: another live instance on the same database keeps its jobs.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

const live = new Set<string>();

export function newInstanceId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export function markLive(id: string, isLive: boolean): void {
  if (isLive) live.add(id);
  else live.delete(id);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function ownerAlive(claimedBy: string | null): boolean {
  if (!claimedBy) return false;
  if (live.has(claimedBy)) return true;
  const parts = claimedBy.split(':');
  const pid = Number(parts[parts.length - 2]);
  const host = parts.slice(0, -2).join(':');
  if (host !== hostname() || !Number.isInteger(pid) || pid === process.pid) return false;
  return pidAlive(pid);
}
