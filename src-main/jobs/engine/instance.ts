/**
 * Which service instance runs a job (`jobs.claimed_by` = host:pid:random). On start, a job left `running` by a process
 * of this machine is requeued only when that process is gone: another live instance on the same database keeps its
 * jobs. Claims of other machines are judged by their lease (job-maintenance.ts).
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

/** Whether an instance id names a process of this machine (whose life this machine can check). */
export function onThisMachine(claimedBy: string): boolean {
  return claimedBy.split(':').slice(0, -2).join(':') === hostname();
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
