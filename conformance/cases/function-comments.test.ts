// The comment of a tracked function (decision dec.functions.comment): kept in the metadata, and the
// description of its root field, on the server's own database and on another source.
import { caseNeeding, covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql } from '../harness/fixtures';
import { REQUIRES_SOURCE_DATABASE, useSourceDatabase } from '../harness/sourceDatabase';
import { useTarget } from '../harness/target';

const target = useTarget();
const second = useSourceDatabase();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const exported = async () => (await run('export_metadata', {})).body as Record<string, unknown>;
const COMMENT = 'this function helps fetch items by their title';
const queryFields = async () => {
  const body = (await target.graphql('{ __schema { queryType { fields { name description } } } }', undefined, { headers: target.adminHeaders() })).body as {
    data: { __schema: { queryType: { fields: { name: string; description: string | null }[] } } };
  };
  return new Map(body.data.__schema.queryType.fields.map((f) => [f.name, f.description]));
};

afterEach(async () => {
  await target.reset();
  if (REQUIRES_SOURCE_DATABASE.met) await second.sql('drop table if exists public.author_s1 cascade');
});

test(
  covers(
    ['dec.functions.comment', 'op.track_function.v2', 'op.export_metadata.v1', 'op.replace_metadata.v1'],
    "a function's comment is kept, exported and is its root field's description",
  ),
  async () => {
    await target.sql(fixtureSql('shopfn'));
    const search = { schema: 'shopfn', name: 'search_items' };
    expectResponse(await run('track_table', { table: { schema: 'shopfn', name: 'item' } }), 200, ok);
    expectResponse(await run('track_function', { function: search, comment: COMMENT }), 200, ok);
    expectResponse(await run('track_function', { function: { schema: 'shopfn', name: 'by_owner' }, comment: null }), 200, ok);
    const document = {
      version: 2,
      tables: [{ table: { schema: 'shopfn', name: 'item' } }],
      functions: [{ function: { schema: 'shopfn', name: 'by_owner' } }, { function: search, comment: COMMENT }],
    };
    expect(await exported()).toEqual(document);
    // The database's own comment of the function is not part of it any more.
    expect((await queryFields()).get('shopfn_search_items')).toBe(COMMENT);
    expectResponse(await run('clear_metadata', {}), 200, ok);
    expectResponse(await run('replace_metadata', document), 200, ok);
    expect(await exported()).toEqual(document);
    expect((await queryFields()).get('shopfn_search_items')).toBe(COMMENT);
    // A comment is a string.
    const refused = await run('track_function', { function: { schema: 'shopfn', name: 'cheapest' }, comment: 7 });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'parse-failed', path: '$.args.comment' });
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.functions.comment', 'dec.source.forms', 'op.track_function.v2'],
  'pg_track_function on another source takes a comment too',
  async () => {
    expectResponse(await run('pg_add_source', { name: 'new_pg_db', configuration: { connection_info: { database_url: second.url } } }), 200, ok);
    await second.sql(`create table public.author_s1 (id serial primary key, name text unique);
      insert into public.author_s1 (name) values ('Author 1'), ('Author 2');
      create function public.search_authors_s1(search text) returns setof public.author_s1
        language sql stable as $$ select * from public.author_s1 where name ilike ('%' || search || '%') $$`);
    expectResponse(await run('pg_track_table', { source: 'new_pg_db', table: 'author_s1' }), 200, ok);
    expectResponse(
      await run('pg_track_function', { source: 'new_pg_db', function: { schema: 'public', name: 'search_authors_s1' }, comment: COMMENT }),
      200,
      ok,
    );
    expect(((await exported()).sources as { functions: unknown }[])[0]!.functions).toEqual([
      { function: { schema: 'public', name: 'search_authors_s1' }, comment: COMMENT },
    ]);
    expect((await queryFields()).get('search_authors_s1')).toBe(COMMENT);
  },
);
