// The isolation level of the server's own database (decision dec.source.isolation-level): the
// default source's configuration, as replace_metadata gives it, names the level its GraphQL queries
// and mutations run at, admin's and a role's alike; read committed when none is given. PostgreSQL's
// transaction_isolation shows it, read by a view and written by a column default.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { useTarget } from '../harness/target';

const target = useTarget();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const reader = () => ({ ...target.adminHeaders(), 'x-engine-role': 'reader' });
const tables = [
  {
    table: { schema: 'public', name: 'iso_level' },
    select_permissions: [{ role: 'reader', permission: { columns: ['level'], filter: {} } }],
  },
  {
    table: { schema: 'public', name: 'iso_note' },
    insert_permissions: [{ role: 'reader', permission: { check: {}, columns: [] } }],
    select_permissions: [{ role: 'reader', permission: { columns: ['level'], filter: {} } }],
  },
];
const own = (level: string) => ({
  configuration: { connection_info: { database_url: { from_env: 'ENGINE_GRAPHQL_DATABASE_URL' }, isolation_level: level } },
});
const replace = async (defaultSource: unknown) => expectResponse(await run('replace_metadata', { version: 2, tables, default_source: defaultSource }), 200, ok);
const levelNow = async (headers?: Record<string, string>) => (await target.graphql('{ iso_level { level } }', undefined, headers ? { headers } : {})).body;
const writtenAt = async (headers?: Record<string, string>) =>
  (await target.graphql('mutation { insert_iso_note_one(object: {}) { level } }', undefined, headers ? { headers } : {})).body;
const level = (name: string) => ({ data: { iso_level: [{ level: name }] } });
const written = (name: string) => ({ data: { insert_iso_note_one: { level: name } } });

beforeEach(async () => {
  await target.sql(`drop view if exists iso_level; drop table if exists iso_note;
    create view iso_level as select current_setting('transaction_isolation') as level;
    create table iso_note (id serial primary key, level text not null default current_setting('transaction_isolation'))`);
});
afterEach(async () => {
  expectResponse(await run('replace_metadata', { version: 2, tables: [], default_source: null }), 200, ok);
  await target.sql('drop view if exists iso_level; drop table if exists iso_note');
});

test(
  covers(
    ['dec.source.isolation-level', 'dec.metadata.default-source', 'op.replace_metadata.v2'],
    "the server's own database runs GraphQL at the default source's isolation level, admin and roles alike, the next request seeing a new one",
  ),
  async () => {
    await replace(null);
    expect(await levelNow()).toEqual(level('read committed'));
    await replace(own('serializable'));
    expect(await levelNow()).toEqual(level('serializable'));
    expect(await levelNow(reader())).toEqual(level('serializable'));
    expect(await writtenAt()).toEqual(written('serializable'));
    expect(await writtenAt(reader())).toEqual(written('serializable'));
    await replace(own('repeatable-read'));
    expect(await levelNow()).toEqual(level('repeatable read'));
    expect(await levelNow(reader())).toEqual(level('repeatable read'));
    expect(await writtenAt(reader())).toEqual(written('repeatable read'));
    await replace(own('read-committed'));
    expect(await writtenAt()).toEqual(written('read committed'));
    await replace(null);
    expect(await levelNow(reader())).toEqual(level('read committed'));
    expect(await writtenAt()).toEqual(written('read committed'));
    expect(await target.sql('select level from iso_note order by id')).toEqual([
      { level: 'serializable' },
      { level: 'serializable' },
      { level: 'repeatable read' },
      { level: 'read committed' },
      { level: 'read committed' },
    ]);
  },
);

test(
  covers(
    ['dec.source.isolation-level', 'dec.metadata.default-source', 'op.replace_metadata.v2'],
    'an isolation level the engine does not name for the default source is refused and leaves the level as it was',
  ),
  async () => {
    await replace(own('serializable'));
    const refused = await run('replace_metadata', { version: 2, tables, default_source: own('read-uncommitted') });
    expect(refused.status).toBe(400);
    expect((refused.body as { code: string }).code).toBe('parse-failed');
    expect(await levelNow()).toEqual(level('serializable'));
    expect(((await run('export_metadata', {})).body as { default_source: unknown }).default_source).toEqual(own('serializable'));
  },
);

const runSql = (sql: string, extra: Record<string, unknown> = {}) => target.metadata({ type: 'run_sql', args: { sql, ...extra } }, { endpoint: '/v2/query' });
const sqlLevel = async (extra: Record<string, unknown> = {}) => (await runSql("select current_setting('transaction_isolation') as level", extra)).body;
const sqlAnswer = (name: string) => ({ result_type: 'TuplesOk', result: [['level'], [name]] });

test(
  covers(['dec.source.isolation-level', 'op.run_sql'], "run_sql on the server's own database runs at the default source's isolation level, read_only too"),
  async () => {
    await replace(own('repeatable-read'));
    expect(await sqlLevel()).toEqual(sqlAnswer('repeatable read'));
    expect(await sqlLevel({ read_only: true })).toEqual(sqlAnswer('repeatable read'));
    await replace(own('serializable'));
    expect(await sqlLevel()).toEqual(sqlAnswer('serializable'));
    const inBulk = await target.metadata(
      { type: 'bulk', args: [{ type: 'run_sql', args: { sql: 'insert into iso_note default values returning level' } }] },
      { endpoint: '/v1/query' },
    );
    expect(inBulk.body).toEqual([{ result_type: 'TuplesOk', result: [['level'], ['serializable']] }]);
    await replace(null);
    expect(await sqlLevel()).toEqual(sqlAnswer('read committed'));
    expect(await sqlLevel({ read_only: true })).toEqual(sqlAnswer('read committed'));
  },
);

test(
  covers(
    ['dec.source.isolation-level', 'op.bulk', 'dec.bulk.atomic'],
    'at repeatable read, run_sql requests that wait for one another each read the metadata the one before wrote: every table they track stays tracked',
  ),
  async () => {
    await replace(own('repeatable-read'));
    const names = ['iso_c0', 'iso_c1', 'iso_c2', 'iso_c3', 'iso_c4', 'iso_c5'];
    try {
      const answers = await Promise.all(
        names.map((name) =>
          target.metadata(
            {
              type: 'bulk',
              args: [
                { type: 'run_sql', args: { sql: `create table ${name} (id int primary key)` } },
                { type: 'track_table', args: { table: { schema: 'public', name } } },
              ],
            },
            { endpoint: '/v1/query' },
          ),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(names.map(() => 200));
      const exported = (await run('export_metadata', {})).body as { tables: { table: { name: string } }[] };
      expect(exported.tables.map((t) => t.table.name).sort()).toEqual([...names, 'iso_level', 'iso_note']);
    } finally {
      await replace(null);
      await target.sql(names.map((name) => `drop table if exists ${name};`).join(' '));
    }
  },
);
