// Inherited roles served (decision dec.inherited-roles): an inherited role reads the rows any of
// its parents may read; a column that only some parents list is read where one of their filters
// holds and is null in the other rows, in the fields, where, order_by and aggregates alike.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql, musicTable } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const as = (role: string) => ({ ...target.adminHeaders(), 'x-engine-role': role });
const gql = async (query: string, role: string) => (await target.graphql(query, undefined, { headers: as(role) })).body;

/** fan reads the id of the artist from the US; critic reads more of the one from Norway. */
const artist = {
  table: musicTable('artist'),
  select_permissions: [
    { role: 'fan', permission: { columns: ['id'], filter: { country: { _eq: 'US' } } } },
    { role: 'critic', permission: { columns: ['id', 'name', 'formed'], filter: { country: { _eq: 'NO' } }, allow_aggregations: true } },
  ],
  insert_permissions: [
    { role: 'fan', permission: { columns: ['id', 'name'], check: {} } },
    { role: 'critic', permission: { columns: ['id'], check: {} } },
  ],
};

beforeAll(async () => {
  await target.sql(fixtureSql('music'));
  expectResponse(await run('reload_metadata', {}), 200);
});
afterAll(async () => {
  expectResponse(await run('replace_metadata', { version: 2, tables: [] }), 200, ok);
});

test(
  covers(['dec.inherited-roles', 'op.add_inherited_role'], "an inherited role reads its parents' rows; a column only some of them list is null elsewhere"),
  async () => {
    expectResponse(await run('replace_metadata', { version: 2, tables: [artist] }), 200, ok);
    expectResponse(await run('add_inherited_role', { role_name: 'audience', role_set: ['fan', 'critic'] }), 200, ok);
    expect(await gql('{ music_artist(order_by: {id: asc}) { id name formed } }', 'audience')).toEqual({
      data: {
        music_artist: [
          { id: 1, name: 'Aurora Lane', formed: 2010 },
          { id: 2, name: null, formed: null },
        ],
      },
    });
    // The hidden values are null to where and order_by too: Brass Tacks' 1998 neither matches nor sorts.
    expect(await gql('{ music_artist(where: {formed: {_lt: 2020}}) { id } }', 'audience')).toEqual({ data: { music_artist: [{ id: 1 }] } });
    expect(await gql('{ music_artist(order_by: {formed: desc_nulls_first}) { id } }', 'audience')).toEqual({ data: { music_artist: [{ id: 2 }, { id: 1 }] } });
    expect(await gql('{ music_artist_aggregate { aggregate { count(columns: formed) sum { formed } } } }', 'audience')).toEqual({
      data: { music_artist_aggregate: { aggregate: { count: 1, sum: { formed: 2010 } } } },
    });
    // name, not null in the table, may be null for the inherited role; for critic it is not.
    const nameType = `{ __type(name: "music_artist") { fields(includeDeprecated: true) { name type { kind } } } }`;
    const kindOfName = (body: unknown) =>
      (body as { data: { __type: { fields: { name: string; type: { kind: string } }[] } } }).data.__type.fields.find((f) => f.name === 'name')?.type.kind;
    expect(kindOfName(await gql(nameType, 'audience'))).toBe('SCALAR');
    expect(kindOfName(await gql(nameType, 'critic'))).toBe('NON_NULL');
    // The parents themselves are unchanged.
    expect(await gql('{ music_artist { id } }', 'fan')).toEqual({ data: { music_artist: [{ id: 2 }] } });
  },
);

test(
  covers(
    ['dec.inherited-roles', 'op.get_inconsistent_metadata'],
    "a permission the parents disagree on is not inherited and is reported; the inherited role's own permission wins",
  ),
  async () => {
    // Reported, it refuses replace_metadata unless inconsistency is allowed.
    const metadata = { version: 2, tables: [artist], inherited_roles: [{ role_name: 'audience', role_set: ['fan', 'critic'] }] };
    expectResponse(await run('replace_metadata', { metadata }), 400);
    expectResponse(await run('replace_metadata', { metadata, allow_inconsistent_metadata: true }), 200);
    expectResponse(await run('get_inconsistent_metadata', {}), 200, [
      {
        name: 'audience',
        type: 'inherited role permission inconsistency',
        reason: "Could not inherit permission for the role 'audience' for the entity: 'insert permission, table: music.artist, source: 'default''",
        entity: { table: 'music.artist', source: 'default', permission_type: 'insert' },
      },
    ]);
    const mutation = 'mutation { insert_music_artist_one(object: {id: 9}) { id } }';
    // No mutation at all is left to the inherited role.
    expect(await gql(mutation, 'audience')).toEqual({
      errors: [{ message: 'the schema is not configured for mutation operations', extensions: { path: '$', code: 'validation-failed' } }],
    });
    // A select permission of its own replaces what it would inherit.
    const own = {
      ...artist,
      select_permissions: [...artist.select_permissions, { role: 'audience', permission: { columns: ['id'], filter: { id: { _eq: 3 } } } }],
    };
    expectResponse(await run('replace_metadata', { metadata: { ...metadata, tables: [own] }, allow_inconsistent_metadata: true }), 200);
    expect(await gql('{ music_artist { id } }', 'audience')).toEqual({ data: { music_artist: [{ id: 3 }] } });
  },
);
