// Metadata operations with 100, 1,000 and 5,000 tracked tables: replace_metadata time,
// track_table and export_metadata latency, and the server's memory.
import { Client } from 'pg';
import { fixtureSql } from '../conformance/harness/fixtures';
import { freePort, provisionDatabase } from '../reference/src/db/provision';
import { median, rssMiB, startReference, stop, waitFor } from './processes';

const SIZES = [100, 1000, 5000];
const SAMPLES = 10;

export async function metadataScale(log: (line: string) => void): Promise<string> {
  const database = await provisionDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL });
  const port = await freePort();
  const startServer = () => startReference(database.url, port);
  let server = startServer();
  try {
    log('creating 5,020 tables');
    const client = new Client({ connectionString: database.url });
    await client.connect();
    await client.query(fixtureSql('scale'));
    for (let lo = 1; lo <= 5000; lo += 500) await client.query('select scale.make($1, $2, $3)', ['t', lo, lo + 499]);
    await client.query('select scale.make($1, $2, $3)', ['x', 1, 20]);
    await client.end();
    const url = `http://127.0.0.1:${port}`;
    await waitFor(`${url}/healthz`);
    const call = async (body: unknown) => {
      const started = process.hrtime.bigint();
      const r = await fetch(`${url}/v1/metadata`, { method: 'POST', headers: { 'x-engine-role': 'admin' }, body: JSON.stringify(body) });
      const text = await r.text();
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (r.status !== 200) throw new Error(`${JSON.stringify(body).slice(0, 100)}: ${r.status} ${text.slice(0, 300)}`);
      return ms;
    };
    await call({ type: 'reload_metadata', args: {} });
    const rows: string[] = [];
    for (const n of SIZES) {
      const tables = Array.from({ length: n }, (_, i) => ({ table: { schema: 'scale', name: `t${i + 1}` } }));
      const replace = await call({ type: 'replace_metadata', args: { version: 2, tables } });
      const track: number[] = [];
      for (let i = 1; i <= SAMPLES; i++) {
        track.push(await call({ type: 'track_table', args: { table: { schema: 'scale', name: `x${i}` } } }));
        await call({ type: 'untrack_table', args: { table: { schema: 'scale', name: `x${i}` } } });
      }
      const permissions: number[] = [];
      for (let i = 1; i <= SAMPLES; i++) {
        const args = { table: { schema: 'scale', name: 't1' }, role: `r${i}` };
        permissions.push(
          await call({ type: 'create_select_permission', args: { ...args, permission: { columns: ['id', 'name'], filter: { id: { _gt: 0 } } } } }),
        );
        await call({ type: 'drop_select_permission', args });
      }
      const exports: number[] = [];
      for (let i = 0; i < SAMPLES; i++) exports.push(await call({ type: 'export_metadata', args: {} }));
      // The GraphQL schema is built on the first GraphQL request after a change.
      const started = process.hrtime.bigint();
      const g = await fetch(`${url}/v1/graphql`, {
        method: 'POST',
        headers: { 'x-engine-role': 'admin' },
        body: JSON.stringify({ query: '{ scale_t1(limit: 1) { id } }' }),
      });
      if (g.status !== 200 || !(await g.text()).startsWith('{"data"')) throw new Error('GraphQL request failed');
      const firstQuery = Number(process.hrtime.bigint() - started) / 1e6;
      const rss = rssMiB(server.pid!);
      log(`${n} tables: create_select_permission p50 ${median(permissions).toFixed(1)} ms`);
      log(
        `${n} tables: replace ${Math.round(replace)} ms, track_table p50 ${median(track).toFixed(1)} ms, export p50 ${median(exports).toFixed(1)} ms, first GraphQL query ${Math.round(firstQuery)} ms, RSS ${rss} MiB`,
      );
      rows.push(
        `| ${n} | ${Math.round(replace)} | ${median(track).toFixed(1)} | ${median(exports).toFixed(1)} | ${median(permissions).toFixed(1)} | ${Math.round(firstQuery)} | ${rss} |`,
      );
    }
    // 5,000 tables with select permissions for 10 roles, each role's schema built by a query: roles
    // that read the same columns through different filters (their schemas can be shared), then
    // roles that each read a different set of columns (nothing to share). No admin request is made,
    // so the admin schema is not built.
    const ROLES = 10;
    const scenarios: { title: string; permission: (r: number) => Record<string, unknown> }[] = [
      { title: 'the same columns, a different filter each', permission: (r) => ({ columns: ['id', 'name'], filter: { id: { _gt: r } } }) },
      {
        title: 'a different set of columns each',
        permission: (r) => ({
          columns: ['id', ...['name', 'amount', 'created_at'].filter((_, b) => (r % 8) & (1 << b))],
          filter: { id: { _gt: r } },
          allow_aggregations: r >= 8,
        }),
      },
    ];
    for (const scenario of scenarios) {
      // A fresh server for each: its memory is that of this metadata, not of what came before.
      await call({ type: 'clear_metadata', args: {} });
      await stop(server);
      server = startServer();
      await waitFor(`${url}/healthz`);
      const tables = Array.from({ length: 5000 }, (_, i) => ({
        table: { schema: 'scale', name: `t${i + 1}` },
        select_permissions: Array.from({ length: ROLES }, (_, r) => ({ role: `role${r}`, permission: scenario.permission(r) })),
      }));
      const replaceRoles = await call({ type: 'replace_metadata', args: { version: 2, tables } });
      const roleStart = process.hrtime.bigint();
      for (let r = 0; r < ROLES; r++) {
        const g = await fetch(`${url}/v1/graphql`, {
          method: 'POST',
          headers: { 'x-engine-role': `role${r}` },
          body: JSON.stringify({ query: '{ scale_t1(limit: 1) { id } }' }),
        });
        if (!(await g.text()).startsWith('{"data"')) throw new Error(`role${r}: GraphQL request failed`);
      }
      const roleSchemas = Number(process.hrtime.bigint() - roleStart) / 1e6;
      const rolesRss = rssMiB(server.pid!);
      log(
        `5000 tables x ${ROLES} roles (${scenario.title}): replace ${Math.round(replaceRoles)} ms, first query of each role ${Math.round(roleSchemas)} ms in all, RSS ${rolesRss} MiB`,
      );
      rows.push(
        '',
        `5,000 tables × ${ROLES} roles (50,000 select permissions), ${scenario.title}: replace_metadata ${Math.round(replaceRoles)} ms; the first query of each role (building its schema) ${Math.round(roleSchemas)} ms for all ${ROLES}; server RSS ${rolesRss} MiB after them.`,
      );
    }
    return [
      `Median of ${SAMPLES} requests for track_table and export_metadata; replace_metadata is one request. The GraphQL schema is built on the first GraphQL request after a metadata change, so that request is timed too; RSS is the server process's after it.`,
      '',
      '| tracked tables | replace_metadata ms | track_table ms | export_metadata ms | create_select_permission ms | first GraphQL query after a change ms | server RSS MiB (after it) |',
      '|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n');
  } finally {
    await stop(server);
    await database.stop();
  }
}
