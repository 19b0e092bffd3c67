// Child processes of the benchmarks: start, wait until they answer, stop.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..');

export function start(command: string, args: string[], env: Record<string, string>, cwd = ROOT): ChildProcess {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (d: Buffer) => (errors = (errors + d.toString()).slice(-4000)));
  child.on('exit', (code, signal) => {
    if ((code && code !== 143 && code !== 130) || (signal && signal !== 'SIGTERM')) {
      process.stderr.write(`${command} ${args.join(' ')} exited with ${code ?? signal}: ${errors}\n`);
    }
  });
  return child;
}

/** The reference server on `databaseUrl`, on 127.0.0.1:`port`, logging errors only. */
export function startReference(databaseUrl: string, port: number, env: Record<string, string> = {}): ChildProcess {
  return start(process.execPath, [join(ROOT, 'bin', 'engine-reference.js')], {
    ENGINE_GRAPHQL_DATABASE_URL: databaseUrl,
    ENGINE_GRAPHQL_SERVER_PORT: String(port),
    ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1',
    ENGINE_GRAPHQL_LOG_LEVEL: 'error',
    ...env,
  });
}

export async function waitFor(url: string, init?: RequestInit, seconds = 60): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    try {
      const r = await fetch(url, init);
      if (r.status < 500) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${seconds} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

/** Resident memory of a process in MiB, from /proc. */
export function rssMiB(pid: number): number {
  const status = require('node:fs').readFileSync(`/proc/${pid}/status`, 'utf8') as string;
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** The middle value (of an odd count; the upper middle of an even one). */
export const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
