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

/** A path that resolves: the field to add, and the steps as they are sent. */
export interface ResolvedRemotePath {
  field: GraphQLFieldConfig<unknown, unknown>;
  steps: { name: string; arguments: Record<string, unknown> }[];
}

/** Follow `path` in `remote` (its query root fields): the field to add, or why there is none. */
export function resolveRemotePath(remote: Pick<RemoteContribution, 'query'>, path: RemoteFieldPath): ResolvedRemotePath | { problem: string } {
  const steps = remoteFieldSteps(path);
  let field: GraphQLFieldConfig<unknown, unknown> | undefined;
  let parent = 'the query root';
  for (const [i, step] of steps.entries()) {
    if (i === 0) field = remote.query.get(step.name);
    else {
      const type = getNamedType(field!.type);
      if (!isObjectType(type) && !isInterfaceType(type)) return { problem: `${parent} has no fields: ${JSON.stringify(step.name)} cannot be reached` };
      const found = type.getFields()[step.name];
      field = found && {
        type: found.type,
        args: Object.fromEntries(found.args.map((a) => [a.name, { type: a.type, defaultValue: a.defaultValue, description: a.description }])),
      };
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
    steps,
  };
}
