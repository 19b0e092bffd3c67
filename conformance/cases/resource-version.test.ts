// Optimistic concurrency of metadata changes (decisions dec.envelope.resource-version and
// dec.export_metadata.v2): a client that read the metadata at one resource version can make its
// change conditional on it, so that of several clients editing the same export at once exactly
// one wins and the others are told, instead of silently undoing each other's work.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { useTarget } from '../harness/target';

const target = useTarget();
const exportV2 = async () =>
  (await target.metadata({ type: 'export_metadata', version: 2, args: {} })).body as {
    resource_version: number;
    metadata: { version: 2; tables: { table: { schema: string; name: string } }[] };
  };
const conflict = (version: number) => ({
  path: '$',
  error: `metadata resource version referenced (${version}) did not match current version`,
  code: 'conflict',
});

beforeAll(async () => {
  await target.sql(
    `drop schema if exists rv cascade; create schema rv; ${Array.from({ length: 40 }, (_, i) => `create table rv.t${i} (id int primary key);`).join(' ')}`,
  );
  await target.metadata({ type: 'reload_metadata', args: {} });
});
beforeEach(async () => {
  await target.reset();
});

test(
  covers(
    ['dec.export_metadata.v2', 'op.export_metadata.v1', 'op.export_metadata.v2'],
    'export_metadata v2 answers the resource version with the metadata; v1 the metadata alone',
  ),
  async () => {
    const v2 = await target.metadata({ type: 'export_metadata', version: 2, args: {} });
    expectResponse(v2, 200, { resource_version: expect.any(Number), metadata: { version: 2, tables: [] } });
    expectResponse(await target.metadata({ type: 'export_metadata', version: 1, args: {} }), 200, { version: 2, tables: [] });
    expectResponse(await target.metadata({ type: 'export_metadata', args: {} }), 200, { version: 2, tables: [] });
  },
);

test(covers(['dec.envelope.resource-version', 'dec.export_metadata.v2'], 'every change bumps the resource version; reads do not'), async () => {
  const first = (await exportV2()).resource_version;
  await target.metadata({ type: 'track_table', args: { table: { schema: 'rv', name: 't0' } } });
  const second = (await exportV2()).resource_version;
  expect(second).toBeGreaterThan(first);
  await target.metadata({ type: 'get_inconsistent_metadata', args: {} });
  expect((await exportV2()).resource_version).toBe(second);
  // Every kind of write bumps it, a refused one does not.
  let last = second;
  const writes = [
    { type: 'create_select_permission', args: { table: { schema: 'rv', name: 't0' }, role: 'r', permission: { columns: '*', filter: {} } } },
    { type: 'drop_select_permission', args: { table: { schema: 'rv', name: 't0' }, role: 'r' } },
    { type: 'bulk', args: [{ type: 'untrack_table', args: { table: { schema: 'rv', name: 't0' } } }] },
    { type: 'replace_metadata', args: { version: 2, tables: [{ table: { schema: 'rv', name: 't0' } }] } },
    { type: 'clear_metadata', args: {} },
  ];
  for (const write of writes) {
    expect((await target.metadata(write)).status).toBe(200);
    const now = (await exportV2()).resource_version;
    expect([write.type, now > last]).toEqual([write.type, true]);
    last = now;
  }
  expect((await target.metadata({ type: 'untrack_table', args: { table: { schema: 'rv', name: 't0' } } })).status).toBe(400);
  expect((await exportV2()).resource_version).toBe(last);
});

test(
  covers(['dec.envelope.resource-version', 'err.conflict'], 'a change conditioned on a stale resource version is refused with 409 and changes nothing'),
  async () => {
    const { resource_version: seen } = await exportV2();
    expectResponse(await target.metadata({ type: 'track_table', resource_version: seen, args: { table: { schema: 'rv', name: 't1' } } }), 200, {
      message: 'success',
    });
    const now = await exportV2();
    const stale = await target.metadata({ type: 'track_table', resource_version: seen, args: { table: { schema: 'rv', name: 't2' } } });
    expectResponse(stale, 409, conflict(seen));
    expect(await exportV2()).toEqual(now);
    const replace = await target.metadata({ type: 'replace_metadata', version: 2, resource_version: seen, args: { metadata: { version: 2, tables: [] } } });
    expectResponse(replace, 409, conflict(seen));
    expect(await exportV2()).toEqual(now);
    // A version the metadata has not reached yet is no match either: only the current one is.
    const ahead = now.resource_version + 1;
    expectResponse(
      await target.metadata({ type: 'track_table', resource_version: ahead, args: { table: { schema: 'rv', name: 't2' } } }),
      409,
      conflict(ahead),
    );
    expect(await exportV2()).toEqual(now);
    expectResponse(await target.metadata({ type: 'track_table', resource_version: 'x', args: { table: { schema: 'rv', name: 't2' } } }), 400, {
      path: '$.resource_version',
      error: 'expected Integer, but encountered String',
      code: 'parse-failed',
    });
  },
);

test(
  covers(
    ['dec.envelope.resource-version', 'err.conflict', 'op.replace_metadata.v2'],
    '8 clients editing one export at once: one wins per round, the others get 409, nothing is lost',
  ),
  async () => {
    const CLIENTS = 8;
    const ROUNDS = 5;
    const acknowledged = new Set<string>();
    let next = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Every client exports, then every client sends its edit: all of them edit one version.
      const exports = await Promise.all(Array.from({ length: CLIENTS }, () => exportV2()));
      const outcomes = await Promise.all(
        exports.map(async ({ resource_version, metadata }) => {
          const name = `t${next++}`;
          const edited = { ...metadata, tables: [...metadata.tables, { table: { schema: 'rv', name } }] };
          const r = await target.metadata({ type: 'replace_metadata', version: 2, resource_version, args: { metadata: edited } });
          if (r.status === 200) acknowledged.add(name);
          else expectResponse(r, 409, conflict(resource_version));
          return r.status;
        }),
      );
      // Each round starts from one export version: exactly one client can win it.
      expect(outcomes.filter((s) => s === 200)).toHaveLength(1);
    }
    const names = (await exportV2()).metadata.tables.map((t) => t.table.name);
    expect(new Set(names)).toEqual(acknowledged);
    expect(names).toHaveLength(ROUNDS);
  },
);
