// CPU time of processes from /proc: a server's own, and that of the PostgreSQL processes that
// serve it (the backends are children of the postmaster).
import { readdirSync, readFileSync } from 'node:fs';
import type { Client } from 'pg';

/** The parent of a process, from /proc. */
const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);

/** CPU seconds a process has used so far (user + system). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The postmaster of the cluster `client` is connected to: the parent of its backend. */
export async function postmasterOf(client: Client): Promise<number> {
  const backend = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
  return parentOf(backend);
}

/** The pids of the PostgreSQL processes of the cluster whose postmaster is `postmaster`. */
export function postgresPids(postmaster: number): number[] {
  const pids = [postmaster];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (parentOf(Number(name)) === postmaster) pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** CPU seconds of each process of `pids` so far (those gone meanwhile left out). */
export function cpuOf(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      out.set(pid, cpuSeconds(pid));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * CPU seconds spent between two readings: by the processes present at both, and all of those that
 * started in between (a pool's new connections). Those that ended in between are not counted.
 */
export const cpuBetween = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, seconds]) => sum + seconds - (before.get(pid) ?? 0), 0);
