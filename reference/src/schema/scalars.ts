// PostgreSQL column types as GraphQL scalars, and what each type can be compared or aggregated with.
import { GraphQLBoolean, GraphQLFloat, GraphQLInt, GraphQLScalarType, GraphQLString, Kind, type ValueNode } from 'graphql';
import type { DbColumn } from '../db/introspection';

/** Decision dec.graphql.column-scalars: the types the engine gives GraphQL's own scalars. */
const BUILT_IN: Record<string, GraphQLScalarType> = {
  int4: GraphQLInt,
  float4: GraphQLFloat,
  text: GraphQLString,
  varchar: GraphQLString,
  bool: GraphQLBoolean,
};

/** Hasura's names for types that have a shorter GraphQL name. */
const RENAMED: Record<string, string> = { int2: 'smallint', int8: 'bigint' };

const NUMERIC = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'money']);
const STRING_LIKE = new Set(['text', 'varchar', 'bpchar', 'citext', 'name']);
const ORDERED = new Set([...NUMERIC, ...STRING_LIKE, 'date', 'time', 'timetz', 'timestamp', 'timestamptz', 'interval', 'uuid', 'inet', 'bool']);

export const isNumericType = (c: DbColumn) => NUMERIC.has(c.type);
export const isStringType = (c: DbColumn) => STRING_LIKE.has(c.type);
export const isJsonbType = (c: DbColumn) => c.type === 'jsonb';
/** PostGIS's types, whose values are GeoJSON (decision dec.graphql.postgis). */
export const isGeoType = (c: DbColumn) => c.type === 'geometry' || c.type === 'geography';
/** PostGIS's raster, compared for equality and by its own operators only (decision dec.graphql.postgis-raster). */
export const isRasterType = (c: DbColumn) => c.type === 'raster';
/** Whether min/max apply: ordered base types. */
export const isOrderedType = (c: DbColumn) => ORDERED.has(c.type) && c.type !== 'bool';

/**
 * The GraphQL scalar name of a column type: arrays as `_<element>`, like the engine does; a row type
 * (a table's, or a composite type) as `<type>_scalar`, since the table's object type has its name
 * (decision dec.graphql.composite-scalars); its values are PostgreSQL's text form of a row.
 */
export function scalarName(c: DbColumn): string {
  if (c.type_kind === 'c') return `${c.type}_scalar`;
  if (BUILT_IN[c.type]) return BUILT_IN[c.type]!.name;
  return RENAMED[c.type] ?? c.type;
}

/**
 * The PostgreSQL type a GraphQL scalar name stands for, when a custom type names one (decision
 * dec.action.postgres-scalars): `bigint` is int8, `uuid` is uuid; names that the engine gives
 * another GraphQL name (int4 is Int) stand for none.
 */
export function postgresTypeOfScalar(name: string): string | undefined {
  const renamed = Object.entries(RENAMED).find(([, graphql]) => graphql === name);
  if (renamed) return renamed[0];
  return BUILT_IN[name] || RENAMED[name] ? undefined : name;
}

function literalValue(node: ValueNode, variables?: Record<string, unknown> | null): unknown {
  switch (node.kind) {
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.BOOLEAN:
      return node.value;
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((v) => literalValue(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literalValue(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[node.name.value];
  }
}

/** A scalar that takes any JSON value: PostgreSQL checks it when the statement runs. */
export function customScalar(name: string): GraphQLScalarType {
  return new GraphQLScalarType({
    name,
    serialize: (v) => v,
    parseValue: (v) => v,
    parseLiteral: (node, variables) => literalValue(node, variables),
  });
}

export const builtInScalar = (name: string) => [GraphQLInt, GraphQLFloat, GraphQLString, GraphQLBoolean].find((s) => s.name === name);
