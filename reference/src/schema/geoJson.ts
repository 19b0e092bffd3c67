// GeoJSON as the engine reads a value of a `geometry` or `geography` column (decision
// dec.graphql.postgis): an object of a geometry type, checked before the statement runs, with the
// engine's messages; a string goes to PostgreSQL's ST_GeomFromGeoJSON as it is.

/** The JSON type name the engine's messages use. */
export function jsonType(v: unknown): string {
  if (v === null) return 'Null';
  if (Array.isArray(v)) return 'Array';
  if (typeof v === 'object') return 'Object';
  if (typeof v === 'number') return 'Number';
  if (typeof v === 'boolean') return 'Boolean';
  return 'String';
}

class GeoJsonProblem extends Error {}

const fail = (message: string): never => {
  throw new GeoJsonProblem(message);
};
const mismatch = (name: string, expected: string, v: unknown) => fail(`parsing ${name} failed, expected ${expected}, but encountered ${jsonType(v)}`);

function array(name: string, v: unknown): unknown[] {
  return Array.isArray(v) ? v : mismatch(name, 'Array', v);
}

function position(v: unknown): unknown[] {
  const numbers = array('Position', v);
  // Each element a number (null is taken, as the engine takes it).
  for (const n of numbers) if (n !== null && typeof n !== 'number') fail(`parsing Double failed, unexpected ${jsonType(n)}`);
  if (numbers.length < 2) fail('A Position needs at least 2 elements');
  return numbers;
}

const positions = (v: unknown) => array('[]', v).map(position);

function lineString(v: unknown): void {
  const items = array('LineString', v).map(position);
  if (items.length < 2) fail('A LineString needs at least 2 Positions');
}

function linearRing(v: unknown): void {
  const items = array('LinearRing', v).map(position);
  if (items.length < 4) fail('A LinearRing needs at least 4 Positions');
  if (JSON.stringify(items[0]) !== JSON.stringify(items[items.length - 1])) fail('the first and last locations have to be equal for a LinearRing');
}

const polygon = (v: unknown) => array('[]', v).forEach(linearRing);

function geometry(v: unknown): void {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return mismatch('Geometry', 'Object', v);
  const o = v as Record<string, unknown>;
  if (!('type' in o)) fail('key "type" not found');
  if (typeof o.type !== 'string') mismatch('Text', 'String', o.type);
  const member = (key: string) => (key in o ? o[key] : fail(`key ${JSON.stringify(key)} not found`));
  switch (o.type) {
    case 'Point':
      return void position(member('coordinates'));
    case 'MultiPoint':
      return void positions(member('coordinates'));
    case 'LineString':
      return lineString(member('coordinates'));
    case 'MultiLineString':
      return array('[]', member('coordinates')).forEach(lineString);
    case 'Polygon':
      return polygon(member('coordinates'));
    case 'MultiPolygon':
      return array('[]', member('coordinates')).forEach(polygon);
    case 'GeometryCollection':
      return array('[]', member('geometries')).forEach(geometry);
    default:
      return fail(`unexpected geometry type: ${String(o.type)}`);
  }
}

/** Why `value` is not a geometry the engine takes, or undefined when it is (or is a string or null). */
export function geoJsonProblem(value: unknown): string | undefined {
  if (value === null || value === undefined || typeof value === 'string') return undefined;
  try {
    geometry(value);
    return undefined;
  } catch (error) {
    if (error instanceof GeoJsonProblem) return error.message;
    throw error;
  }
}

/** The PostGIS types whose values are GeoJSON. */
export const GEO_TYPES: ReadonlySet<string> = new Set(['geometry', 'geography']);

/** Why `value` is not a raster the engine takes (hexadecimal well-known binary), or undefined when it is. */
export function rasterProblem(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'string') return 'expecting String for raster';
  return /^(?:[0-9a-fA-F]{2})*$/.test(value) ? undefined : 'invalid hexadecimal representation of raster well known binary format';
}
