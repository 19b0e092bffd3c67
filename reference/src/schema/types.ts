// Constructors of the schema's named types that give every type, field, argument and enum value
// one shared, frozen `extensions` object. graphql-js otherwise makes a fresh null-prototype object
// for each of them, and V8 keeps such objects in dictionary mode: at 5,000 tables that was about
// 40 % of a role schema's memory.
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLObjectType,
  type GraphQLEnumTypeConfig,
  type GraphQLFieldConfigMap,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputObjectTypeConfig,
  type GraphQLObjectTypeConfig,
  type ThunkObjMap,
} from 'graphql';

export const NO_EXTENSIONS: Readonly<Record<string, never>> = Object.freeze(Object.create(null) as Record<string, never>);

const resolve = <T>(thunk: ThunkObjMap<T>) => (typeof thunk === 'function' ? (thunk as () => Record<string, T>)() : thunk);

export function outputFields(fields: GraphQLFieldConfigMap<unknown, unknown>): GraphQLFieldConfigMap<unknown, unknown> {
  for (const field of Object.values(fields)) {
    field.extensions = NO_EXTENSIONS;
    for (const arg of Object.values(field.args ?? {})) arg.extensions = NO_EXTENSIONS;
  }
  return fields;
}

function inputFields(fields: GraphQLInputFieldConfigMap): GraphQLInputFieldConfigMap {
  for (const field of Object.values(fields)) field.extensions = NO_EXTENSIONS;
  return fields;
}

export const makeObjectType = (config: GraphQLObjectTypeConfig<unknown, unknown>) =>
  new GraphQLObjectType({ ...config, extensions: NO_EXTENSIONS, fields: () => outputFields(resolve(config.fields)) });

export const makeInputObjectType = (config: GraphQLInputObjectTypeConfig) =>
  new GraphQLInputObjectType({ ...config, extensions: NO_EXTENSIONS, fields: () => inputFields(resolve(config.fields)) });

export function makeEnumType(config: GraphQLEnumTypeConfig): GraphQLEnumType {
  for (const value of Object.values(config.values)) value.extensions = NO_EXTENSIONS;
  return new GraphQLEnumType({ ...config, extensions: NO_EXTENSIONS });
}
