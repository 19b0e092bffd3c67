// One load run with autocannon against one server, and the CPU that server and PostgreSQL spent
// on it (from /proc), per request.
import { execFileSync } from 'node:child_process';
import { cpuBetween, cpuOf, cpuSeconds, postgresPids } from './cpu';
import type { ensureTools } from './tools';

export interface LoadTarget {
  url: string;
  /** A POST body (JSON), or a GET without one. */
  body: string | undefined;
  /** The server's process. */
  pid: number;
  /** The postmaster of the PostgreSQL that serves it. */
  postmaster: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU milliseconds per request: the server's process, and all of PostgreSQL's. */
  serverCpuMs: number;
  postgresCpuMs: number;
}

export function load(tools: ReturnType<typeof ensureTools>, target: LoadTarget, seconds: number, connections: number): LoadResult {
  const args = [tools.autocannon, '-c', String(connections), '-d', String(seconds), '-j', '--renderStatusCodes'];
  if (target.body !== undefined) args.push('-m', 'POST', '-H', 'content-type=application/json', '-b', target.body);
  // PostgreSQL's processes are listed again after the run: a pool may open connections during it.
  const before = { server: cpuSeconds(target.pid), postgres: cpuOf(postgresPids(target.postmaster)) };
  const out = execFileSync(tools.node22, [...args, target.url], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
  const after = { server: cpuSeconds(target.pid), postgres: cpuOf(postgresPids(target.postmaster)) };
  const r = JSON.parse(out) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    errors: number;
    non2xx: number;
  };
  const perRequest = (cpuSeconds: number) => (r.requests.total > 0 ? (cpuSeconds * 1000) / r.requests.total : 0);
  return {
    requestsPerSecond: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
    serverCpuMs: perRequest(after.server - before.server),
    postgresCpuMs: perRequest(cpuBetween(before.postgres, after.postgres)),
  };
}
