// The reference server on a database of its own holding the music fixture, for the benchmarks that
// time requests of several roles: timed POSTs, the server's process, and its stop.
import type { ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import { fixtureSql } from '../conformance/harness/fixtures';
import { freePort, provisionDatabase } from '../reference/src/db/provision';
import { startReference, stop, waitFor } from './processes';

export interface MusicServer {
  server: ChildProcess;
  /** A POST as `role` (admin unless told): its status, text and milliseconds from sending to the whole answer. */
  post(path: string, body: unknown, role?: string): Promise<{ status: number; text: string; ms: number }>;
  stop(): Promise<void>;
}

/** Started with the music fixture and `sql` run on its database first. */
export async function startMusicServer(sql = ''): Promise<MusicServer> {
  const database = await provisionDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL });
  const port = await freePort();
  const server = startReference(database.url, port);
  const client = new Client({ connectionString: database.url });
  await client.connect();
  await client.query(fixtureSql('music'));
  if (sql) await client.query(sql);
  await client.end();
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/healthz`);
  return {
    server,
    async post(path, body, role = 'admin') {
      const started = process.hrtime.bigint();
      const r = await fetch(url + path, { method: 'POST', headers: { 'x-engine-role': role, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const text = await r.text();
      return { status: r.status, text, ms: Number(process.hrtime.bigint() - started) / 1e6 };
    },
    async stop() {
      await stop(server);
      await database.stop();
    },
  };
}
