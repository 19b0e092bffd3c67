// PostGIS rasters (decision dec.graphql.postgis-raster): a `raster` column is the scalar raster,
// its values hexadecimal well-known binary (ST_AsHexWKB, ST_RastFromHexWKB), compared with the
// engine's _st_intersects_rast, _st_intersects_nband_geom and _st_intersects_geom_nband. Tiles: 1
// covers (0 0)–(10 10), 2 covers (100 100)–(110 110).
import { caseNeeding } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { REQUIRES_POSTGIS, useGisTable, usePostgisDatabase } from '../harness/postgisCluster';
import { useTarget } from '../harness/target';

const target = useTarget();
const gis = usePostgisDatabase();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const point = (x: number, y: number) => ({ type: 'Point', coordinates: [x, y] });
const TILE = (x: number) => `ST_AddBand(ST_MakeEmptyRaster(10, 10, ${x}, ${x + 10}, 1, -1, 0, 0, 4326), '8BUI'::text, 1, 0)`;

const ids = async (where: unknown, role?: string): Promise<unknown> => {
  const headers = role ? { headers: { ...target.adminHeaders(), 'x-engine-role': role } } : {};
  const r = await target.graphql('query ($w: tile_bool_exp) { tile(where: $w, order_by: {id: asc}) { id } }', { w: where }, headers);
  const body = r.body as { data?: { tile: { id: number }[] } };
  return body.data ? body.data.tile.map((p) => p.id) : body;
};

useGisTable(
  target,
  gis,
  `drop table if exists public.tile cascade; create table public.tile (id int primary key, rast raster);
    insert into public.tile values (1, ${TILE(0)}), (2, ${TILE(100)})`,
  'tile',
);

caseNeeding(REQUIRES_POSTGIS, ['dec.graphql.postgis-raster'], 'the operators of raster columns, as the engine names them', async () => {
  const fields = '{ name description type { kind name ofType { kind name } } }';
  const r = await target.graphql(`{
    raster: __type(name: "raster_comparison_exp") { inputFields ${fields} }
    nbandGeom: __type(name: "st_intersects_nband_geom_input") { inputFields ${fields} }
    geomNband: __type(name: "st_intersects_geom_nband_input") { inputFields ${fields} } }`);
  const data = (r.body as { data: Record<string, { inputFields: { name: string }[] }> }).data;
  const field = (name: string, type: unknown) => ({ name, description: null, type });
  const scalar = (name: string) => ({ kind: 'SCALAR', name, ofType: null });
  const nonNull = (name: string) => ({ kind: 'NON_NULL', name: null, ofType: { kind: 'SCALAR', name } });
  const list = { kind: 'LIST', name: null, ofType: { kind: 'NON_NULL', name: null } };
  expect(data.raster!.inputFields.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
    field('_eq', scalar('raster')),
    field('_in', list),
    field('_is_null', scalar('Boolean')),
    field('_neq', scalar('raster')),
    field('_nin', list),
    field('_st_intersects_geom_nband', { kind: 'INPUT_OBJECT', name: 'st_intersects_geom_nband_input', ofType: null }),
    field('_st_intersects_nband_geom', { kind: 'INPUT_OBJECT', name: 'st_intersects_nband_geom_input', ofType: null }),
    field('_st_intersects_rast', scalar('raster')),
  ]);
  expect(data.nbandGeom!.inputFields).toEqual([field('nband', nonNull('Int')), field('geommin', nonNull('geometry'))]);
  expect(data.geomNband!.inputFields).toEqual([field('geommin', nonNull('geometry')), field('nband', scalar('Int'))]);
});

caseNeeding(
  REQUIRES_POSTGIS,
  ['dec.graphql.postgis-raster'],
  'raster values are read and given as hexadecimal WKB; the raster operators choose the rows PostGIS says',
  async () => {
    const [{ hex }] = (await gis.sql(`select ST_AsHexWKB(${TILE(0)}) as hex`)) as [{ hex: string }];
    expectResponse(await target.graphql('{ tile(where: {id: {_eq: 1}}) { rast } }'), 200, { data: { tile: [{ rast: hex }] } });
    expect(await ids({ rast: { _st_intersects_geom_nband: { geommin: point(5, 5) } } })).toEqual([1]);
    expect(await ids({ rast: { _st_intersects_geom_nband: { geommin: point(105, 105), nband: 1 } } })).toEqual([2]);
    expect(await ids({ rast: { _st_intersects_nband_geom: { nband: 1, geommin: point(50, 50) } } })).toEqual([]);
    expect(await ids({ rast: { _st_intersects_rast: hex } })).toEqual([1]);
    const inserted = await target.graphql('mutation ($r: raster) { insert_tile_one(object: {id: 3, rast: $r}) { id rast } }', { r: hex });
    expectResponse(inserted, 200, { data: { insert_tile_one: { id: 3, rast: hex } } });
    expect(await gis.sql('select ST_Width(rast) as width, ST_SRID(rast) as srid from public.tile where id = 3')).toEqual([{ width: 10, srid: 4326 }]);
    const refused = (message: string) => ({ errors: [{ message, extensions: { path: '$', code: 'parse-failed' } }] });
    expect(await ids({ rast: { _st_intersects_rast: 'not hex' } })).toEqual(refused('invalid hexadecimal representation of raster well known binary format'));
    expect(await ids({ rast: { _st_intersects_rast: 12 } })).toEqual(refused('expecting String for raster'));
  },
);

caseNeeding(
  REQUIRES_POSTGIS,
  ['dec.graphql.postgis-raster', 'dec.permission.postgis'],
  'a permission filters tiles with $st_intersects_geom_nband',
  async () => {
    const filter = { rast: { $st_intersects_geom_nband: { geommin: point(102, 103) } } };
    expectResponse(await run('pg_create_select_permission', { source: 'gis', table: 'tile', role: 'far', permission: { columns: ['id'], filter } }), 200, ok);
    expect(await ids({}, 'far')).toEqual([2]);
    const wrong = await run('pg_create_select_permission', {
      source: 'gis',
      table: 'tile',
      role: 'odd',
      permission: { columns: ['id'], filter: { id: { $st_intersects_rast: 'ab' } } },
    });
    expectResponse(wrong, 400, {
      path: '$.args.permission.filter',
      error: '"id" is of type int4; this operator works only on column of types [raster]',
      code: 'unexpected-payload',
    });
  },
);
