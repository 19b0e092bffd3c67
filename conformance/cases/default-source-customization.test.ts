// The default source's customization (decisions dec.metadata.default-source and
// dec.source.customization): root field prefix, suffix and namespace and type name prefix and suffix
// apply to the server's own tables as another source's do to its tables, and are exported as given.
import { caseNeeding, covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql } from '../harness/fixtures';
import { REQUIRES_SOURCE_DATABASE, useSourceDatabase } from '../harness/sourceDatabase';
import { useTarget } from '../harness/target';

const target = useTarget();
const second = useSourceDatabase();
const author = { table: { schema: 'library', name: 'author' } };
const exported = async () => (await target.metadata({ type: 'export_metadata', args: {} })).body;
const replace = (metadata: unknown) => target.metadata({ type: 'replace_metadata', args: { metadata } });
const consistent = { is_consistent: true, inconsistent_objects: [] };
const configuration = { connection_info: { database_url: { from_env: 'ENGINE_GRAPHQL_DATABASE_URL' } } };

beforeAll(async () => {
  await target.sql(fixtureSql('library'));
});
afterEach(async () => {
  // clear_metadata keeps the default source's description: null takes it away.
  await target.metadata({ type: 'replace_metadata', args: { version: 2, tables: [], default_source: null } });
  if (REQUIRES_SOURCE_DATABASE.met) await second.sql('drop table if exists public.ledger');
});

/** The names of the fields of a type, sorted. */
async function fieldNames(type: string): Promise<string[]> {
  const answer = await target.graphql(`{ __type(name: "${type}") { fields { name } } }`);
  return (answer.body as { data: { __type: { fields: { name: string }[] } } }).data.__type.fields.map((f) => f.name).sort();
}

test(
  covers(
    ['dec.source.customization', 'dec.metadata.default-source', 'op.replace_metadata.v2'],
    "the default source's root field prefix and suffix and type name prefix go around its tables' names, as written by the CLI (nulls said nothing), exported as given",
  ),
  async () => {
    const customization = { root_fields: { prefix: 'lib_', suffix: null, namespace: '' }, type_names: { prefix: 'L_' }, naming_convention: 'hasura-default' };
    const v3 = { version: 3, sources: [{ name: 'default', kind: 'postgres', configuration, customization, tables: [author] }] };
    expectResponse(await replace(v3), 200, consistent);
    expect(await fieldNames('query_root')).toEqual(['lib_library_author', 'lib_library_author_aggregate', 'lib_library_author_by_pk']);
    const query = '{ lib_library_author(order_by: {id: asc}) { __typename name } lib_library_author_aggregate { __typename aggregate { count } } }';
    expect((await target.graphql(query)).body).toEqual({
      data: {
        lib_library_author: [
          { __typename: 'L_library_author', name: 'Ursula' },
          { __typename: 'L_library_author', name: 'Stanisław' },
        ],
        lib_library_author_aggregate: { __typename: 'L_library_author_aggregate', aggregate: { count: 2 } },
      },
    });
    const mutation =
      'mutation ($set: L_library_author_set_input) { lib_update_library_author(where: {id: {_eq: 0}}, _set: $set) { __typename affected_rows } }';
    expect((await target.graphql(mutation, { set: { name: 'x' } })).body).toEqual({
      data: { lib_update_library_author: { __typename: 'L_library_author_mutation_response', affected_rows: 0 } },
    });
    expect(await exported()).toEqual({ version: 2, tables: [author], default_source: { configuration, customization } });
  },
);

test(
  covers(
    ['dec.source.customization', 'dec.metadata.default-source', 'op.replace_metadata.v2'],
    "with a namespace the default source's root fields are under one field of each root; queries and mutations through it answer under its alias",
  ),
  async () => {
    const customization = { root_fields: { namespace: 'lib' } };
    expectResponse(await replace({ version: 2, tables: [author], default_source: { customization } }), 200, consistent);
    expect(await fieldNames('query_root')).toEqual(['lib']);
    expect(await fieldNames('lib_query')).toEqual(['library_author', 'library_author_aggregate', 'library_author_by_pk']);
    expect(await fieldNames('lib_mutation_frontend')).toContain('insert_library_author_one');
    expect((await target.graphql('{ l: lib { __typename library_author_by_pk(id: 1) { name } } }')).body).toEqual({
      data: { l: { __typename: 'lib_query', library_author_by_pk: { name: 'Ursula' } } },
    });
    const mutation = 'mutation { lib { __typename insert_library_author_one(object: {name: "Ada"}) { name } } }';
    expect((await target.graphql(mutation)).body).toEqual({
      data: { lib: { __typename: 'lib_mutation_frontend', insert_library_author_one: { name: 'Ada' } } },
    });
    expect(await target.sql("select name from library.author where name = 'Ada'")).toEqual([{ name: 'Ada' }]);
    await target.sql("delete from library.author where name = 'Ada'");
    expect(await exported()).toEqual({ version: 2, tables: [author], default_source: { customization } });
  },
);

test(
  covers(
    ['dec.source.customization', 'dec.metadata.default-source', 'op.pg_update_source'],
    "pg_update_source replaces the default source's customization, and only that; the graphql-default convention recases its names",
  ),
  async () => {
    expectResponse(await replace({ version: 2, tables: [author], default_source: { configuration } }), 200, consistent);
    const update = (args: unknown) => target.metadata({ type: 'pg_update_source', args });
    expectResponse(await update({ name: 'default', customization: { root_fields: { suffix: '_v2' }, type_names: { prefix: 'A_' } } }), 200, {
      message: 'success',
    });
    expect(await fieldNames('query_root')).toEqual(['library_author_aggregate_v2', 'library_author_by_pk_v2', 'library_author_v2']);
    expect((await target.graphql('{ library_author_by_pk_v2(id: 2) { __typename name } }')).body).toEqual({
      data: { library_author_by_pk_v2: { __typename: 'A_library_author', name: 'Stanisław' } },
    });
    const customized = { configuration, customization: { root_fields: { suffix: '_v2' }, type_names: { prefix: 'A_' } } };
    expect(await exported()).toEqual({ version: 2, tables: [author], default_source: customized });
    // The server's own database stays the one it was started with.
    expectResponse(await update({ name: 'default', configuration, customization: {} }), 400, {
      path: '$.args',
      error: 'the source "default" is the server\'s own database: it cannot be added, dropped, renamed or changed',
      code: 'not-supported',
    });
    expect(await exported()).toEqual({ version: 2, tables: [author], default_source: customized });
    // The graphql-default convention recases the server's own tables' names (decision 048).
    expectResponse(await update({ name: 'default', customization: { naming_convention: 'graphql-default' } }), 200, { message: 'success' });
    expect(await fieldNames('query_root')).toEqual(['libraryAuthor', 'libraryAuthorAggregate', 'libraryAuthorByPk']);
    expect((await target.graphql('{ libraryAuthorByPk(id: 2) { __typename name } }')).body).toEqual({
      data: { libraryAuthorByPk: { __typename: 'LibraryAuthor', name: 'Stanisław' } },
    });
    expect(await exported()).toEqual({
      version: 2,
      tables: [author],
      default_source: { configuration, customization: { naming_convention: 'graphql-default' } },
    });
    // An empty customization takes it away.
    expectResponse(await update({ name: 'default', customization: {} }), 200, { message: 'success' });
    expect(await exported()).toEqual({ version: 2, tables: [author], default_source: { configuration } });
    expect(await fieldNames('query_root')).toEqual(['library_author', 'library_author_aggregate', 'library_author_by_pk']);
  },
);

test(
  covers(
    ['dec.source.customization', 'dec.metadata.default-source', 'op.replace_metadata.v2'],
    "a name of the default source's customization that is not a GraphQL name is refused, nothing changed",
  ),
  async () => {
    expectResponse(await replace({ version: 2, tables: [author], default_source: { customization: { type_names: { suffix: 'x-y' } } } }), 400, {
      path: '$.args.metadata.default_source.customization.type_names.suffix',
      error: '"x-y" is not a GraphQL name',
      code: 'parse-failed',
    });
    expect(await exported()).toEqual({ version: 2, tables: [] });
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.customization', 'dec.metadata.default-source', 'op.pg_add_source'],
  "the default source's namespace is a root field another source's table may not take",
  async () => {
    expectResponse(
      await replace({ version: 2, tables: [author], default_source: { customization: { root_fields: { namespace: 'ledger' } } } }),
      200,
      consistent,
    );
    await second.sql('create table public.ledger (id int primary key)');
    const add = { name: 'archive', configuration: { connection_info: { database_url: second.url } } };
    expectResponse(await target.metadata({ type: 'pg_add_source', args: add }), 200, { message: 'success' });
    expectResponse(await target.metadata({ type: 'pg_track_table', args: { source: 'archive', table: 'ledger' } }), 400, {
      path: '$.args',
      error: 'the GraphQL name "ledger" of table "ledger" of the source "archive" conflicts with the namespace of the source "default"',
      code: 'already-exists',
    });
    expect(((await exported()) as { sources: { tables: unknown[] }[] }).sources[0]!.tables).toEqual([]);
    // A whole document with the clash is refused alike, nothing changed.
    const archive = { ...add, kind: 'postgres', tables: [{ table: { schema: 'public', name: 'ledger' } }] };
    const document = { version: 2, tables: [author], default_source: { customization: { root_fields: { namespace: 'ledger' } } }, sources: [archive] };
    const before = await exported();
    expectResponse(await target.metadata({ type: 'replace_metadata', args: { metadata: document, allow_inconsistent_metadata: true } }), 400, {
      path: '$.args',
      error: 'the GraphQL name "ledger" of table "ledger" of the source "archive" conflicts with the namespace of the source "default"',
      code: 'already-exists',
    });
    expect(await exported()).toEqual(before);
    expect((await target.graphql('{ ledger { library_author_by_pk(id: 1) { name } } }')).body).toEqual({
      data: { ledger: { library_author_by_pk: { name: 'Ursula' } } },
    });
  },
);
