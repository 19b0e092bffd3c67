// PostGIS columns (decision dec.graphql.postgis): `geometry` and `geography` as scalars taking and
// giving GeoJSON, their `_st_*` operators and `_cast` in `where`, the `$st_*` operators in
// permissions, and GeoJSON refused before the statement runs. The embedded PostgreSQL has no
// PostGIS: these cases run on a source whose PostgreSQL has it (harness/postgisCluster.ts).
// Places: 1 origin at (0 0), 2 near at (1 1), 3 far at (10 10); `spot` the same as geography.
import { caseNeeding } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { REQUIRES_POSTGIS, useGisTable, usePostgisDatabase } from '../harness/postgisCluster';
import { useTarget } from '../harness/target';

const target = useTarget();
const gis = usePostgisDatabase();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const asRole = (role: string) => ({ headers: { ...target.adminHeaders(), 'x-engine-role': role } });
const point = (x: number, y: number) => `{type: "Point", coordinates: [${x}, ${y}]}`;
/** The square from (-0.5 -0.5) to (1.5 1.5): origin and near are in it, far is not. */
const SQUARE = {
  type: 'Polygon',
  coordinates: [
    [
      [-0.5, -0.5],
      [1.5, -0.5],
      [1.5, 1.5],
      [-0.5, 1.5],
      [-0.5, -0.5],
    ],
  ],
};

const ids = async (where: string, role?: string): Promise<unknown> => {
  const r = await target.graphql(`{ place(where: ${where}, order_by: {id: asc}) { id } }`, undefined, role ? asRole(role) : {});
  const body = r.body as { data?: { place: { id: number }[] } };
  return body.data ? body.data.place.map((p) => p.id) : body;
};

useGisTable(
  target,
  gis,
  `drop table if exists public.place cascade;
    create table public.place (id int primary key, name text not null, location geometry, spot geography);
    insert into public.place values
      (1, 'origin', 'SRID=4326;POINT(0 0)', 'SRID=4326;POINT(0 0)'),
      (2, 'near', 'SRID=4326;POINT(1 1)', 'SRID=4326;POINT(1 1)'),
      (3, 'far', 'SRID=4326;POINT(10 10)', 'SRID=4326;POINT(10 10)')`,
  'place',
);

caseNeeding(REQUIRES_POSTGIS, ['dec.graphql.postgis'], 'the operators of geometry and geography columns, as the engine names and describes them', async () => {
  const fields = '{ name description type { kind name ofType { kind name } } defaultValue }';
  const r = await target.graphql(`{
    geometry: __type(name: "geometry_comparison_exp") { inputFields ${fields} }
    geography: __type(name: "geography_comparison_exp") { inputFields ${fields} }
    within: __type(name: "st_d_within_input") { description inputFields ${fields} }
    withinGeography: __type(name: "st_d_within_geography_input") { description inputFields ${fields} }
    geometryCast: __type(name: "geometry_cast_exp") { inputFields ${fields} }
    geographyCast: __type(name: "geography_cast_exp") { inputFields ${fields} }
    place: __type(name: "place") { fields { name type { name } } } }`);
  const data = (r.body as { data: Record<string, { inputFields?: { name: string }[]; fields?: { name: string }[] }> }).data;
  const sorted = <T extends { name: string }>(list: T[] | undefined) => list!.sort((a, b) => a.name.localeCompare(b.name));
  const named = (name: string) => ({ kind: 'SCALAR', name, ofType: null });
  const input = (name: string) => ({ kind: 'INPUT_OBJECT', name, ofType: null });
  const field = (name: string, type: unknown, description: string | null = null, defaultValue: string | null = null) => ({
    name,
    description,
    type,
    defaultValue,
  });
  const common = (scalar: string) => [
    field('_eq', named(scalar)),
    field('_gt', named(scalar)),
    field('_gte', named(scalar)),
    field('_in', { kind: 'LIST', name: null, ofType: { kind: 'NON_NULL', name: null } }),
    field('_is_null', named('Boolean')),
    field('_lt', named(scalar)),
    field('_lte', named(scalar)),
    field('_neq', named(scalar)),
    field('_nin', { kind: 'LIST', name: null, ofType: { kind: 'NON_NULL', name: null } }),
  ];
  expect(sorted(data.geometry!.inputFields)).toEqual([
    field('_cast', input('geometry_cast_exp')),
    ...common('geometry'),
    field('_st_3d_d_within', input('st_d_within_input'), 'is the column within a given 3D distance from the given geometry value'),
    field('_st_3d_intersects', named('geometry'), 'does the column spatially intersect the given geometry value in 3D'),
    field('_st_contains', named('geometry'), 'does the column contain the given geometry value'),
    field('_st_crosses', named('geometry'), 'does the column cross the given geometry value'),
    field('_st_d_within', input('st_d_within_input'), 'is the column within a given distance from the given geometry value'),
    field('_st_equals', named('geometry'), 'is the column equal to given geometry value (directionality is ignored)'),
    field('_st_intersects', named('geometry'), 'does the column spatially intersect the given geometry value'),
    field('_st_overlaps', named('geometry'), "does the column 'spatially overlap' (intersect but not completely contain) the given geometry value"),
    field('_st_touches', named('geometry'), 'does the column have atleast one point in common with the given geometry value'),
    field('_st_within', named('geometry'), 'is the column contained in the given geometry value'),
  ]);
  expect(sorted(data.geography!.inputFields)).toEqual([
    field('_cast', input('geography_cast_exp')),
    ...common('geography'),
    field('_st_d_within', input('st_d_within_geography_input'), 'is the column within a given distance from the given geography value'),
    field('_st_intersects', named('geography'), 'does the column spatially intersect the given geography value'),
  ]);
  const nonNull = (name: string, kind = 'SCALAR') => ({ kind: 'NON_NULL', name: null, ofType: { kind, name } });
  expect(data.within).toEqual({ description: null, inputFields: [field('distance', nonNull('Float')), field('from', nonNull('geometry'))] });
  expect(data.withinGeography).toEqual({
    description: null,
    inputFields: [field('distance', nonNull('Float')), field('from', nonNull('geography')), field('use_spheroid', named('Boolean'), null, 'true')],
  });
  expect(data.geometryCast!.inputFields).toEqual([field('geography', input('geography_comparison_exp'))]);
  expect(data.geographyCast!.inputFields).toEqual([field('geometry', input('geometry_comparison_exp'))]);
  expect(sorted(data.place!.fields)).toEqual([
    { name: 'id', type: { name: null } },
    { name: 'location', type: { name: 'geometry' } },
    { name: 'name', type: { name: null } },
    { name: 'spot', type: { name: 'geography' } },
  ]);
});

caseNeeding(REQUIRES_POSTGIS, ['dec.graphql.postgis'], 'the _st_* operators and _cast choose the rows PostGIS says', async () => {
  expect(await ids(`{location: {_st_d_within: {distance: 2, from: ${point(0, 0)}}}}`)).toEqual([1, 2]);
  expect(await ids(`{location: {_st_d_within: {distance: 0.5, from: ${point(0, 0)}}}}`)).toEqual([1]);
  expect(await ids(`{location: {_st_3d_d_within: {distance: 2, from: ${point(10, 11)}}}}`)).toEqual([3]);
  expect(await ids('{location: {_st_within: $square}}'.replace('$square', JSON.stringify(SQUARE).replace(/"(\w+)":/g, '$1:')))).toEqual([1, 2]);
  expect(await ids(`{location: {_st_intersects: ${point(1, 1)}}}`)).toEqual([2]);
  expect(await ids(`{location: {_st_equals: ${point(10, 10)}}}`)).toEqual([3]);
  expect(await ids(`{_not: {location: {_st_equals: ${point(10, 10)}}}}`)).toEqual([1, 2]);
  // Geography distances are in metres: (1 1) is about 157 km from (0 0).
  expect(await ids(`{spot: {_st_d_within: {distance: 200000, from: ${point(0, 0)}}}}`)).toEqual([1, 2]);
  expect(await ids(`{spot: {_st_d_within: {distance: 100000, from: ${point(0, 0)}, use_spheroid: false}}}`)).toEqual([1]);
  expect(await ids(`{spot: {_st_intersects: ${point(10, 10)}}}`)).toEqual([3]);
  // _cast compares the column as the other type.
  expect(await ids(`{location: {_cast: {geography: {_st_d_within: {distance: 200000, from: ${point(0, 0)}}}}}}`)).toEqual([1, 2]);
  expect(await ids(`{spot: {_cast: {geometry: {_st_within: ${JSON.stringify(SQUARE).replace(/"(\w+)":/g, '$1:')}}}}}`)).toEqual([1, 2]);
  // A variable holds the GeoJSON as JSON.
  const r = await target.graphql(
    'query ($from: geometry!) { place(where: {location: {_st_d_within: {distance: 2, from: $from}}}, order_by: {id: asc}) { id } }',
    {
      from: { type: 'Point', coordinates: [10, 9] },
    },
  );
  expectResponse(r, 200, { data: { place: [{ id: 3 }] } });
});

caseNeeding(
  REQUIRES_POSTGIS,
  ['dec.graphql.postgis'],
  'geometry and geography columns are read as GeoJSON; a GeoJSON point inserted is stored and read back',
  async () => {
    expectResponse(await target.graphql('{ place(where: {id: {_eq: 2}}) { location spot } }'), 200, {
      data: { place: [{ location: { type: 'Point', coordinates: [1, 1] }, spot: { type: 'Point', coordinates: [1, 1] } }] },
    });
    const inserted = await target.graphql(
      'mutation ($spot: geography) { insert_place_one(object: {id: 4, name: "new", location: {type: "Point", coordinates: [2, 3]}, spot: $spot}) { id location spot } }',
      { spot: { type: 'Point', coordinates: [4, 5] } },
    );
    expectResponse(inserted, 200, {
      data: { insert_place_one: { id: 4, location: { type: 'Point', coordinates: [2, 3] }, spot: { type: 'Point', coordinates: [4, 5] } } },
    });
    expect(await gis.sql('select ST_AsText(location) as location, ST_AsText(spot) as spot, ST_SRID(spot) as srid from public.place where id = 4')).toEqual([
      { location: 'POINT(2 3)', spot: 'POINT(4 5)', srid: 4326 },
    ]);
    const updated = await target.graphql(`mutation { update_place(where: {id: {_eq: 4}}, _set: {location: ${point(7, 8)}}) { returning { location } } }`);
    expectResponse(updated, 200, { data: { update_place: { returning: [{ location: { type: 'Point', coordinates: [7, 8] } }] } } });
    expect(await gis.sql('select ST_AsText(location) as location from public.place where id = 4')).toEqual([{ location: 'POINT(7 8)' }]);
  },
);

caseNeeding(REQUIRES_POSTGIS, ['dec.graphql.postgis'], 'a value that is not GeoJSON is refused as the engine refuses it, and nothing is written', async () => {
  const insert = (location: string) => target.graphql(`mutation { insert_place_one(object: {id: 5, name: "bad", location: ${location}}) { id } }`);
  const refused = (message: string) => ({ errors: [{ message, extensions: { path: '$', code: 'parse-failed' } }] });
  expectResponse(await insert('{type: "Pointy", coordinates: [0, 0]}'), 200, refused('unexpected geometry type: Pointy'));
  expectResponse(await insert('{coordinates: [0, 0]}'), 200, refused('key "type" not found'));
  expectResponse(await insert('{type: "Point"}'), 200, refused('key "coordinates" not found'));
  expectResponse(await insert('{type: "Point", coordinates: [0]}'), 200, refused('A Position needs at least 2 elements'));
  expectResponse(await insert('42'), 200, refused('parsing Geometry failed, expected Object, but encountered Number'));
  expect(await ids('{location: {_st_within: {type: "Point", coordinates: [[0, 0]]}}}')).toEqual(refused('parsing Double failed, unexpected Array'));
  expect(await gis.sql('select id from public.place order by id')).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
});

caseNeeding(REQUIRES_POSTGIS, ['dec.graphql.postgis', 'dec.permission.postgis'], 'a permission filters rows with $st_intersects and $st_d_within', async () => {
  const permit = (role: string, filter: unknown) =>
    run('pg_create_select_permission', { source: 'gis', table: 'place', role, permission: { columns: ['id', 'location'], filter } });
  expectResponse(await permit('local', { location: { $st_intersects: SQUARE } }), 200, ok);
  expectResponse(await permit('nearby', { spot: { _st_d_within: { distance: 200000, from: { type: 'Point', coordinates: [9.5, 9.5] } } } }), 200, ok);
  expect(await ids('{}', 'local')).toEqual([1, 2]);
  expect(await ids('{}', 'nearby')).toEqual([3]);
  const exported = (await run('export_metadata', {})).body as { sources: { tables: { select_permissions: unknown[] }[] }[] };
  expect(exported.sources[0]!.tables[0]!.select_permissions).toEqual([
    { role: 'local', permission: { columns: ['id', 'location'], filter: { location: { $st_intersects: SQUARE } } } },
    {
      role: 'nearby',
      permission: { columns: ['id', 'location'], filter: { spot: { _st_d_within: { distance: 200000, from: { type: 'Point', coordinates: [9.5, 9.5] } } } } },
    },
  ]);
});

caseNeeding(
  REQUIRES_POSTGIS,
  ['dec.permission.postgis', 'err.unexpected-payload.operator-column-type', 'err.parse-failed.arguments'],
  'a $st_* operator on a column of another type, or with an operand that is not GeoJSON, is refused, changing nothing',
  async () => {
    const refusal = async (filter: unknown, error: string, code = 'unexpected-payload') => {
      const permission = { columns: ['id'], filter };
      const r = await run('pg_create_select_permission', { source: 'gis', table: 'place', role: 'odd', permission });
      expectResponse(r, 400, { path: '$.args.permission.filter', error, code });
    };
    await refusal({ name: { $st_contains: SQUARE } }, '"name" is of type text; this operator works only on column of types [geometry]');
    await refusal({ spot: { $st_crosses: SQUARE } }, '"spot" is of type geography; this operator works only on column of types [geometry]');
    await refusal(
      { name: { _st_d_within: { distance: 1, from: SQUARE } } },
      '"name" is of type text; this operator works only on column of types [geometry, geography]',
    );
    await refusal({ location: { $st_within: { type: 'Square', coordinates: [] } } }, 'unexpected geometry type: Square', 'parse-failed');
    await refusal({ location: { $st_d_within: { from: SQUARE } } }, 'key "distance" not found', 'parse-failed');
    const exported = (await run('export_metadata', {})).body as { sources: { tables: Record<string, unknown>[] }[] };
    expect(exported.sources[0]!.tables).toEqual([{ table: { schema: 'public', name: 'place' } }]);
  },
);

caseNeeding(REQUIRES_POSTGIS, ['dec.graphql.postgis', 'op.add_computed_field'], 'a computed field returning a geometry is read as GeoJSON', async () => {
  await gis.sql(
    'create or replace function public.place_moved(p public.place) returns geometry as $$ select ST_Translate(p.location, 1, 0) $$ language sql stable',
  );
  const definition = { function: { schema: 'public', name: 'place_moved' } };
  expectResponse(await run('pg_add_computed_field', { source: 'gis', table: 'place', name: 'moved', definition }), 200, ok);
  expectResponse(await target.graphql('{ place(where: {id: {_eq: 2}}) { moved } }'), 200, {
    data: { place: [{ moved: { type: 'Point', coordinates: [2, 1] } }] },
  });
});
