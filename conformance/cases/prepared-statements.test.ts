// Whether a source's GraphQL statements are prepared (decision dec.source.prepared-statements): as
// its connection_info.use_prepared_statements says, false by default as in the engine; the server's
// own database as the server is set up while the default source has no configuration. Seen from
// inside the statement: a view counts the session's prepared statements, which a named statement
// is among while it runs.
import { caseNeeding, covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { REQUIRES_SOURCE_DATABASE, useSourceDatabase } from '../harness/sourceDatabase';
import { useTarget } from '../harness/target';

const target = useTarget();
const second = useSourceDatabase();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const VIEW = 'drop view if exists prepared_here; create view prepared_here as select count(*)::int as n from pg_prepared_statements';
const own = (extra: Record<string, unknown>) => ({
  configuration: { connection_info: { database_url: { from_env: 'ENGINE_GRAPHQL_DATABASE_URL' }, ...extra } },
});
const replace = async (defaultSource: unknown) =>
  expectResponse(
    await run('replace_metadata', { version: 2, tables: [{ table: { schema: 'public', name: 'prepared_here' } }], default_source: defaultSource }),
    200,
    ok,
  );
/** How many statements the session that answered had prepared, read twice (the second on a connection that already ran one). */
const preparedSeen = async (field: string) => {
  const seen: number[] = [];
  for (let i = 0; i < 2; i++) {
    const body = (await target.graphql(`{ ${field} { n } }`)).body as { data?: Record<string, { n: number }[]> };
    expect(body.data?.[field]).toHaveLength(1);
    seen.push(body.data![field]![0]!.n);
  }
  return seen;
};
const prepared = (seen: number[]) => seen.every((n) => n >= 1);

beforeEach(async () => {
  await target.sql(VIEW);
});
afterEach(async () => {
  await target.reset();
  await run('replace_metadata', { version: 2, tables: [], default_source: null });
  await target.sql('drop view if exists prepared_here');
  if (REQUIRES_SOURCE_DATABASE.met) await second.sql('drop view if exists prepared_here');
});

test(
  covers(
    ['dec.source.prepared-statements', 'dec.metadata.default-source', 'op.replace_metadata.v2'],
    "the server's own database: statements prepared without a configuration, then as its use_prepared_statements says, false by default",
  ),
  async () => {
    await replace(null);
    expect(prepared(await preparedSeen('prepared_here'))).toBe(true);
    await replace(own({ use_prepared_statements: false }));
    expect(await preparedSeen('prepared_here')).toEqual([0, 0]);
    await replace(own({ use_prepared_statements: true }));
    expect(prepared(await preparedSeen('prepared_here'))).toBe(true);
    await replace(own({ isolation_level: 'read-committed' }));
    expect(await preparedSeen('prepared_here')).toEqual([0, 0]);
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.prepared-statements', 'op.pg_add_source', 'op.pg_update_source'],
  'another source: statements not prepared unless its use_prepared_statements is true; a change holds for the next request',
  async () => {
    await second.sql(VIEW);
    const configuration = (extra: Record<string, unknown>) => ({ connection_info: { database_url: second.url, ...extra } });
    expectResponse(await run('pg_add_source', { name: 'annex', configuration: configuration({}) }), 200, ok);
    expectResponse(
      await run('pg_track_table', { source: 'annex', table: { schema: 'public', name: 'prepared_here' }, configuration: { custom_name: 'annex_prepared' } }),
      200,
      ok,
    );
    expect(await preparedSeen('annex_prepared')).toEqual([0, 0]);
    expectResponse(await run('pg_update_source', { name: 'annex', configuration: configuration({ use_prepared_statements: true }) }), 200, ok);
    expect(prepared(await preparedSeen('annex_prepared'))).toBe(true);
    expectResponse(await run('pg_update_source', { name: 'annex', configuration: configuration({ use_prepared_statements: false }) }), 200, ok);
    expect(await preparedSeen('annex_prepared')).toEqual([0, 0]);
  },
);
