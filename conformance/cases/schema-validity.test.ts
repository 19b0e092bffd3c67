// Accepted metadata never breaks the GraphQL schema (decision dec.schema.always-valid): what would
// keep a role's schema from being valid (an enum table whose rows are no GraphQL names, two types
// of one name) is an inconsistent object: refused when a change brings it, reported when the
// database brings it, left out of what is served, and removed by drop_inconsistent_metadata.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { useTarget } from '../harness/target';

const target = useTarget();
const run = (type: string, args: unknown) => target.metadata({ type, args });
const gql = async (query: string, headers: Record<string, string> = target.adminHeaders()) => (await target.graphql(query, undefined, { headers })).body;
const asUser = () => ({ ...target.adminHeaders(), 'x-engine-role': 'user' });
const ok = { message: 'success' };
const color = { schema: 'validity', name: 'color' };
const paint = { schema: 'validity', name: 'paint' };

beforeEach(async () => {
  await target.reset();
  await target.sql(`drop schema if exists validity cascade; create schema validity;
    create table validity.color (value text primary key, comment text);
    insert into validity.color values ('red', 'warm'), ('blue', 'cold');
    create table validity.paint (id int primary key, color text references validity.color (value));
    insert into validity.paint values (1, 'red');`);
  expectResponse(
    await run('bulk', [
      { type: 'track_table', args: { table: color, is_enum: true } },
      { type: 'track_table', args: { table: paint } },
      { type: 'create_select_permission', args: { table: paint, role: 'user', permission: { columns: ['id', 'color'], filter: {} } } },
    ]),
    200,
  );
});

const enumInconsistency = (reason: string) => ({
  type: 'table',
  name: 'table validity.color in source default',
  reason: `Inconsistent object: the table "validity.color" cannot be used as an enum because ${reason}`,
  definition: color,
});

test(
  covers(
    ['dec.schema.always-valid', 'op.reload_metadata', 'op.get_inconsistent_metadata', 'op.drop_inconsistent_metadata'],
    'an enum value that is no GraphQL name makes the enum table inconsistent; the rest is served',
  ),
  async () => {
    expect(await gql('{ validity_paint { id color } }')).toEqual({ data: { validity_paint: [{ id: 1, color: 'red' }] } });
    await target.sql("insert into validity.color values ('illegal+graphql+identifier', null), ('2nd', null)");
    const inconsistent = enumInconsistency('the values "2nd" and "illegal+graphql+identifier" are not valid GraphQL enum value names');
    expectResponse(await run('reload_metadata', {}), 200, { message: 'success', is_consistent: false, inconsistent_objects: [inconsistent] });
    expectResponse(await run('get_inconsistent_metadata', {}), 200, [inconsistent]);
    // Every schema still works: the table that is no enum any more is left out, the rest is served.
    for (const headers of [target.adminHeaders(), asUser()]) {
      expect(await gql('{ __typename }', headers)).toEqual({ data: { __typename: 'query_root' } });
      expect(await gql('{ validity_paint(order_by: {id: asc}) { id } }', headers)).toEqual({ data: { validity_paint: [{ id: 1 }] } });
    }
    expectResponse(await run('drop_inconsistent_metadata', {}), 200, ok);
    expect(((await run('export_metadata', {})).body as { tables: unknown[] }).tables).toEqual([
      { table: paint, select_permissions: [{ role: 'user', permission: { columns: ['id', 'color'], filter: {} } }] },
    ]);
    expectResponse(await run('get_inconsistent_metadata', {}), 200, []);
  },
);

test(covers(['dec.schema.always-valid', 'op.reload_metadata'], 'an enum table emptied by SQL is inconsistent until it has rows again'), async () => {
  await target.sql('delete from validity.paint; delete from validity.color');
  const inconsistent = enumInconsistency('the table must have at least one row');
  expectResponse(await run('reload_metadata', {}), 200, { message: 'success', is_consistent: false, inconsistent_objects: [inconsistent] });
  expect(await gql('{ validity_paint { id } }')).toEqual({ data: { validity_paint: [] } });
  await target.sql("insert into validity.color values ('green', null)");
  expectResponse(await run('reload_metadata', {}), 200, { message: 'success', is_consistent: true });
  expect(await gql('{ __type(name: "validity_color_enum") { enumValues { name } } }')).toEqual({
    data: { __type: { enumValues: [{ name: 'green' }] } },
  });
});

test(
  covers(
    ['dec.schema.always-valid', 'op.track_table.v2', 'err.unexpected.inconsistent-metadata', 'err.validation-failed.schema'],
    'a change that would give two GraphQL types one name is refused, and changes nothing',
  ),
  async () => {
    // The enum table's values are the type validity_color_enum; so would be the object type of this table.
    await target.sql('create table validity.color_enum (id int primary key)');
    const before = (await run('export_metadata', {})).body as { tables: unknown[] };
    const r = await run('track_table', { table: { schema: 'validity', name: 'color_enum' } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      internal: [
        {
          type: 'table',
          name: 'table validity.color_enum in source default',
          reason: expect.stringMatching(/^Inconsistent object: the GraphQL schema would not be valid: .*"validity_color_enum"/),
          definition: { schema: 'validity', name: 'color_enum' },
        },
      ],
      path: '$.args',
      error: 'cannot continue due to inconsistent metadata',
      code: 'unexpected',
    });
    expect((await run('export_metadata', {})).body).toEqual(before);
    expect(await gql('{ validity_paint { color } }')).toEqual({ data: { validity_paint: [{ color: 'red' }] } });
    // Kept with allow_inconsistent_metadata: reported, left out of the schema, and dropped again.
    const metadata = { ...before, tables: [...before.tables, { table: { schema: 'validity', name: 'color_enum' } }] };
    const kept = await target.metadata({ type: 'replace_metadata', version: 2, args: { allow_inconsistent_metadata: true, metadata } });
    expect((kept.body as { is_consistent: boolean }).is_consistent).toBe(false);
    for (const headers of [target.adminHeaders(), asUser()])
      expect(await gql('{ validity_paint { id } }', headers)).toEqual({ data: { validity_paint: [{ id: 1 }] } });
    expectResponse(await run('drop_inconsistent_metadata', {}), 200, ok);
    expect((await run('export_metadata', {})).body).toEqual(before);
  },
);

describe('a name reserved by introspection ("__…") is refused where the schema would carry it, and changes nothing', () => {
  const changes: [string, Record<string, unknown>, string][] = [
    ['a root field', { custom_root_fields: { select: '__paints' } }, '"__paints" (root field select of table "validity.paint") is not a valid GraphQL name'],
    ['a column', { custom_column_names: { id: '__id' } }, '"__id" (custom name of column "id" of table "validity.paint") is not a valid GraphQL name'],
    ['a table', { custom_name: '__paint' }, '"__paint" (the custom_name of table "validity.paint") is not a valid GraphQL name'],
  ];
  test.each(changes)(
    covers(['dec.schema.always-valid', 'op.set_table_customization', 'err.validation-failed.graphql-name'], 'the name of %s'),
    async (_what, configuration, error) => {
      const before = (await run('export_metadata', {})).body;
      const r = await run('set_table_customization', { table: paint, configuration });
      expect([r.status, r.body]).toEqual([400, { path: '$.args', error, code: 'validation-failed' }]);
      expect((await run('export_metadata', {})).body).toEqual(before);
      for (const headers of [target.adminHeaders(), asUser()])
        expect(await gql('{ validity_paint { id } }', headers)).toEqual({ data: { validity_paint: [{ id: 1 }] } });
    },
  );
});
