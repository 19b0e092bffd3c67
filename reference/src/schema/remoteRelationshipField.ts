// The field a remote relationship adds to its table's type (decision dec.remote-relationship.forms):
// the path of remote_field followed from the remote's query root, through the part of the remote a
// role sees. Its type is the last field's; its arguments those the path does not set.
import {
  getNamedType,
  isInterfaceType,
  isNonNullType,
  isObjectType,
  type GraphQLArgumentConfig,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
} from 'graphql';
import type { RemoteFieldPath } from '../../../spec';
import { remoteFieldSteps } from '../../../spec';
import type { RemoteContribution } from '../metadata/remoteSchemas';

/** How a customized remote names its fields in the engine's schema (decision dec.remote-schema.customization). */
export interface RemoteNaming {
  /** The field of query_root that holds the remote's root fields, if any. */
  namespace?: string;
  /** The engine's name of the remote's query root. */
  queryRoot: string;
  /** By the engine's name of a type: the engine's name of a field → the remote's. */
  fieldToRemote: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/** The engine's name of the remote's field `field` of the type the engine names `type`; undefined: renamed away. */
export function engineFieldName(naming: RemoteNaming | undefined, type: string, field: string): string | undefined {
  const map = naming?.fieldToRemote.get(type);
  if (!map) return field;
  for (const [engine, remote] of map) if (remote === field) return engine;
  return undefined;
}

/** A path that resolves: the field to add, and the steps as they are sent (in the engine's names). */
export interface ResolvedRemotePath {
  field: GraphQLFieldConfig<unknown, unknown>;
  steps: { name: string; arguments: Record<string, unknown> }[];
}

/**
 * Follow `path` (in the remote's own names) in `remote` (its query root fields as the engine shows
 * them): the field to add, or why there is none.
 */
export function resolveRemotePath(
  remote: Pick<RemoteContribution, 'query'>,
  path: RemoteFieldPath,
  naming?: RemoteNaming,
): ResolvedRemotePath | { problem: string } {
  const steps = remoteFieldSteps(path);
  const sent: ResolvedRemotePath['steps'] = [];
  let field: GraphQLFieldConfig<unknown, unknown> | undefined;
  let parent = 'the query root';
  // Under a namespace, the root fields are those of the namespace field's type.
  const holder = naming?.namespace ? remote.query.get(naming.namespace) : undefined;
  for (const [i, step] of steps.entries()) {
    const type = i === 0 ? (holder ? getNamedType(holder.type) : undefined) : getNamedType(field!.type);
    if (i === 0 && !holder) {
      const name = engineFieldName(naming, naming?.queryRoot ?? '', step.name);
      field = name === undefined ? undefined : remote.query.get(name);
      if (field) sent.push({ name: name!, arguments: step.arguments });
    } else {
      if (!isObjectType(type) && !isInterfaceType(type)) return { problem: `${parent} has no fields: ${JSON.stringify(step.name)} cannot be reached` };
      const name = engineFieldName(naming, type.name, step.name);
      const found = name === undefined ? undefined : type.getFields()[name];
      field = found && {
        type: found.type,
        args: Object.fromEntries(found.args.map((a) => [a.name, { type: a.type, defaultValue: a.defaultValue, description: a.description }])),
      };
      if (found) sent.push({ name: found.name, arguments: step.arguments });
    }
    if (!field) return { problem: `field ${JSON.stringify(step.name)} not found in ${parent}` };
    const args = (field.args ?? {}) as GraphQLFieldConfigArgumentMap;
    for (const name of Object.keys(step.arguments)) {
      if (!Object.hasOwn(args, name)) return { problem: `argument ${JSON.stringify(name)} not found on field ${JSON.stringify(step.name)}` };
    }
    // An outer field is asked only with the path's arguments: none of its required ones may be missing.
    if (i < steps.length - 1) {
      for (const [name, arg] of Object.entries(args)) {
        if (isNonNullType(arg.type) && arg.defaultValue === undefined && !Object.hasOwn(step.arguments, name))
          return { problem: `the required argument ${JSON.stringify(name)} of field ${JSON.stringify(step.name)} is not set` };
      }
    }
    parent = `type ${JSON.stringify(getNamedType(field.type).name)}`;
  }
  const last = steps[steps.length - 1]!;
  const args = Object.entries((field!.args ?? {}) as GraphQLFieldConfigArgumentMap).filter(([name]) => !Object.hasOwn(last.arguments, name));
  return {
    field: {
      type: field!.type,
      args: Object.fromEntries(args.map(([name, arg]): [string, GraphQLArgumentConfig] => [name, arg])),
      ...(field!.description ? { description: field!.description } : {}),
    },
    steps: sent,
  };
}
