// PostGIS in GraphQL and in permissions (decision dec.graphql.postgis): columns read as GeoJSON, the
// `_st_*` operators as PostGIS functions, `_cast` between geometry and geography.
import type { DbColumn } from '../../db/introspection';
import { GEO_TYPES, jsonType } from '../../schema/geoJson';
import { CompileError, sql, typedValue, type Fragment } from './context';

export const isGeoColumn = (c: DbColumn) => GEO_TYPES.has(c.type);

/** A column's value as the engine gives it: GeoJSON for PostGIS types, the column itself otherwise. */
export const outputValue = (c: DbColumn, value: Fragment): Fragment => (isGeoColumn(c) ? sql.query`ST_AsGeoJSON(${value})::json` : value);

/** The operators that compare the column with one geometry, by PostGIS function, and the types they apply to. */
const ONE_VALUE: Record<string, { fn: string; types: readonly string[] }> = {
  st_contains: { fn: 'ST_Contains', types: ['geometry'] },
  st_crosses: { fn: 'ST_Crosses', types: ['geometry'] },
  st_equals: { fn: 'ST_Equals', types: ['geometry'] },
  st_overlaps: { fn: 'ST_Overlaps', types: ['geometry'] },
  st_touches: { fn: 'ST_Touches', types: ['geometry'] },
  st_within: { fn: 'ST_Within', types: ['geometry'] },
  st_intersects: { fn: 'ST_Intersects', types: ['geometry', 'geography'] },
  st_3d_intersects: { fn: 'ST_3DIntersects', types: ['geometry'] },
  st_intersects_rast: { fn: 'ST_Intersects', types: ['raster'] },
};
/** The raster operators with a geometry and a band: their fields, in the order ST_Intersects takes them after the raster. */
const BANDED: Record<string, readonly ('nband' | 'geommin')[]> = {
  st_intersects_nband_geom: ['nband', 'geommin'],
  st_intersects_geom_nband: ['geommin', 'nband'],
};
const DISTANCE: Record<string, { fn: string; types: readonly string[] }> = {
  st_d_within: { fn: 'ST_DWithin', types: ['geometry', 'geography'] },
  st_3d_d_within: { fn: 'ST_3DDWithin', types: ['geometry'] },
};

/** The operators whose operand is an object of fields (`{distance, from}`, `{nband, geommin}`), not a value of the column's type. */
export const OBJECT_OPERATORS: ReadonlySet<string> = new Set([...Object.keys(DISTANCE), ...Object.keys(BANDED)]);

/** The PostGIS operators (without their `_` or `$`), for the column types each applies to. */
export const GEO_OPERATORS: ReadonlyMap<string, readonly string[]> = new Map(
  [...Object.entries(ONE_VALUE), ...Object.entries(DISTANCE), ...Object.keys(BANDED).map((op) => [op, { types: ['raster'] }] as const)].map(
    ([op, { types }]) => [op, types],
  ),
);

const FLOAT = { name: 'distance', type: 'float8', type_schema: 'pg_catalog' } as DbColumn;
const BOOLEAN = { name: 'use_spheroid', type: 'bool', type_schema: 'pg_catalog' } as DbColumn;
const INTEGER = { name: 'nband', type: 'int4', type_schema: 'pg_catalog' } as DbColumn;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `op` (a key of GEO_OPERATORS) applied to `col`, a value of `c`'s type; `operand` as given (with
 * session variables resolved by `resolve`). `refuse` says what is wrong with a distance operand.
 */
export function geoCondition(
  c: DbColumn,
  col: Fragment,
  op: string,
  operand: unknown,
  refuse: (message: string) => Error = (m) => new CompileError(m, 'parse-failed'),
): Fragment {
  const one = ONE_VALUE[op];
  if (one) return sql.query`${sql.raw(one.fn)}(${col}, ${typedValue(c, operand)})`;
  const banded = BANDED[op];
  if (banded) {
    if (!isObject(operand)) throw refuse(`parsing ${op} failed, expected Object, but encountered ${jsonType(operand)}`);
    if (!('geommin' in operand)) throw refuse('key "geommin" not found');
    if (op === 'st_intersects_nband_geom' && !('nband' in operand)) throw refuse('key "nband" not found');
    const geometry = { ...c, type: 'geometry' };
    // The band is optional after the geometry: ST_Intersects(raster, geometry) then.
    const args = banded
      .filter((f) => f === 'geommin' || operand.nband !== undefined)
      .map((f) => (f === 'geommin' ? typedValue(geometry, operand.geommin) : typedValue(INTEGER, operand.nband)));
    return sql.query`ST_Intersects(${sql.join([col, ...args], ', ')})`;
  }
  const distance = DISTANCE[op]!;
  if (!isObject(operand))
    throw refuse(`parsing ${c.type === 'geography' ? 'DWithinGeogOp' : 'DWithinGeomOp'} failed, expected Object, but encountered ${jsonType(operand)}`);
  for (const key of ['distance', 'from']) if (!(key in operand)) throw refuse(`key ${JSON.stringify(key)} not found`);
  const args = [col, typedValue(c, operand.from), typedValue(FLOAT, operand.distance)];
  // The engine measures geography on the spheroid unless told otherwise.
  if (c.type === 'geography') args.push(typedValue(BOOLEAN, operand.use_spheroid === undefined ? true : operand.use_spheroid));
  return sql.query`${sql.raw(distance.fn)}(${sql.join(args, ', ')})`;
}

/** The column as the other PostGIS type, for `_cast: {geography | geometry: …}`. */
export function castColumn(c: DbColumn, col: Fragment, target: string): { column: DbColumn; value: Fragment } {
  const column = { ...c, type: target, type_schema: c.type_schema };
  return { column, value: sql.query`${col}::${sql.identifier(c.type_schema, target)}` };
}
