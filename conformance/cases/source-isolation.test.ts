// A source's isolation level (decision dec.source.isolation-level): every transaction on its
// database runs at the level its connection_info names, reads and writes alike, and a new level
// given by pg_update_source holds for the next request. PostgreSQL's transaction_isolation shows it.
import { caseNeeding } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { REQUIRES_SOURCE_DATABASE, useSourceDatabase } from '../harness/sourceDatabase';
import { useTarget } from '../harness/target';

const target = useTarget();
const second = useSourceDatabase();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const configuration = (level?: string) => ({ connection_info: { database_url: second.url, ...(level ? { isolation_level: level } : {}) } });
const levelNow = async () => (await target.graphql('{ iso_level { level } }')).body;
const writtenAt = async () => (await target.graphql('mutation { insert_iso_note_one(object: {}) { level } }')).body;

beforeEach(async () => {
  if (!REQUIRES_SOURCE_DATABASE.met) return;
  await second.sql(`drop view if exists iso_level; drop table if exists iso_note;
    create view iso_level as select current_setting('transaction_isolation') as level;
    create table iso_note (id serial primary key, level text not null default current_setting('transaction_isolation'))`);
});
afterEach(async () => {
  await target.reset();
  if (REQUIRES_SOURCE_DATABASE.met) await second.sql('drop view if exists iso_level; drop table if exists iso_note');
});

async function addTracked(level?: string) {
  expectResponse(await run('pg_add_source', { name: 'iso', configuration: configuration(level) }), 200, ok);
  for (const name of ['iso_level', 'iso_note']) expectResponse(await run('pg_track_table', { source: 'iso', table: { schema: 'public', name } }), 200, ok);
}

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.isolation-level', 'op.pg_add_source', 'op.pg_update_source'],
  "a source's queries and mutations run at its isolation level, read committed when none is given, and a new level holds for the next request",
  async () => {
    await addTracked('serializable');
    expect(await levelNow()).toEqual({ data: { iso_level: [{ level: 'serializable' }] } });
    expect(await writtenAt()).toEqual({ data: { insert_iso_note_one: { level: 'serializable' } } });
    expectResponse(await run('pg_update_source', { name: 'iso', configuration: configuration('repeatable-read') }), 200, ok);
    expect(await levelNow()).toEqual({ data: { iso_level: [{ level: 'repeatable read' }] } });
    expect(await writtenAt()).toEqual({ data: { insert_iso_note_one: { level: 'repeatable read' } } });
    expectResponse(await run('pg_update_source', { name: 'iso', configuration: configuration() }), 200, ok);
    expect(await levelNow()).toEqual({ data: { iso_level: [{ level: 'read committed' }] } });
    expect(await second.sql('select level from iso_note order by id')).toEqual([{ level: 'serializable' }, { level: 'repeatable read' }]);
  },
);

caseNeeding(REQUIRES_SOURCE_DATABASE, ['dec.source.isolation-level', 'op.run_sql'], "run_sql on a source runs at the source's isolation level", async () => {
  await addTracked('repeatable-read');
  expectResponse(
    await target.metadata(
      { type: 'run_sql', args: { source: 'iso', sql: "select current_setting('transaction_isolation') as level" } },
      { endpoint: '/v2/query' },
    ),
    200,
    {
      result_type: 'TuplesOk',
      result: [['level'], ['repeatable read']],
    },
  );
});

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.isolation-level', 'op.pg_add_source'],
  'an isolation level the engine does not name is refused and adds nothing',
  async () => {
    const refused = await run('pg_add_source', { name: 'iso', configuration: configuration('read-uncommitted') });
    expect(refused.status).toBe(400);
    expect((refused.body as { code: string }).code).toBe('parse-failed');
    expect((await run('export_metadata', {})).body).toEqual({ version: 2, tables: [] });
  },
);
