// Where an operation asks for remote relationships (decision dec.remote-relationship.execution):
// found once per plan by following the operation's selections through the role's schema, so that
// the rows' answer can be completed from the remotes after the SQL has run.
import {
  getNamedType,
  isInputType,
  isObjectType,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type VariableDefinitionNode,
} from 'graphql';
import { remoteFieldSteps } from '../../../spec';
import type { Models, RemoteRelationshipModel } from '../schema/model';
import { CompileError } from '../sql/graphql/context';
import { collectFields, type CollectedField, type FieldEnvironment } from '../sql/graphql/fields';
import { namingOf, type CustomizedRemote } from '../remote/customization';
import { engineFieldName } from '../schema/remoteRelationshipField';
import { usedDefinitions } from './usedDefinitions';

/** One field of the path into the remote, with its arguments' types (to write the rows' values as literals). */
export interface JoinStep {
  name: string;
  arguments: Record<string, unknown>;
  argumentTypes: Record<string, GraphQLInputType>;
}

export interface RemoteJoin {
  /** The relationship's name, for messages. */
  name: string;
  /** Aliases from the root field to the relationship's field; arrays between them are walked through. */
  path: string[];
  remote: string;
  lhs: string[];
  steps: JoinStep[];
  /** The client's field: its arguments and selections go to the last step. */
  field: FieldNode;
  selectionSet: SelectionSetNode | undefined;
  fragments: FragmentDefinitionNode[];
  variableDefinitions: VariableDefinitionNode[];
  /** The values of the variables the field reads, as the client sent them. */
  variables: Record<string, unknown>;
  /** A customized remote's names: the request goes in the remote's own, __typename comes back in the engine's. */
  names?: CustomizedRemote;
}

/** The remote joins of an operation's root fields answered by the database. */
export function remoteJoinsOf(
  env: { models: Models; schema: GraphQLSchema; fields: FieldEnvironment },
  operation: OperationDefinitionNode,
  rootType: GraphQLObjectType,
  roots: readonly CollectedField[],
  rawVariables: Readonly<Record<string, unknown>>,
  remoteNames: ReadonlyMap<string, CustomizedRemote> = new Map(),
): RemoteJoin[] {
  const byType = new Map<string, RemoteRelationshipModel[]>();
  for (const t of env.models.values()) if (t.remoteRelationships.length) byType.set(t.name, t.remoteRelationships);
  if (byType.size === 0) return [];
  const joins: RemoteJoin[] = [];
  // Iterative: a selection may nest as deep as the limits allow.
  const pending: { type: GraphQLObjectType; fields: readonly CollectedField[]; path: string[] }[] = [{ type: rootType, fields: roots, path: [] }];
  while (pending.length) {
    const { type, fields, path } = pending.pop()!;
    const rels = byType.get(type.name);
    for (const f of fields) {
      const rel = rels?.find((r) => r.name === f.name);
      if (rel) {
        joins.push(join(env, operation, rel, f, [...path, f.alias], rawVariables, remoteNames.get(rel.remoteSchema)));
        continue;
      }
      const named = f.definition ? getNamedType(f.definition.type) : undefined;
      if (named && isObjectType(named) && f.selectionSet)
        pending.push({ type: named, fields: collectFields(env.fields, named, f.selectionSet), path: [...path, f.alias] });
    }
  }
  if (joins.length && operation.operation === 'subscription') throw new CompileError('Remote relationships are not allowed in subscriptions', 'not-supported');
  return joins;
}

function join(
  env: { schema: GraphQLSchema; fields: FieldEnvironment },
  operation: OperationDefinitionNode,
  rel: RemoteRelationshipModel,
  f: CollectedField,
  path: string[],
  rawVariables: Readonly<Record<string, unknown>>,
  names: CustomizedRemote | undefined,
): RemoteJoin {
  // The remote's root fields are the role's query_root fields (or its namespace field's): the path's types are found there.
  const steps: JoinStep[] = [];
  const naming = names ? namingOf(names) : undefined;
  const root = env.schema.getQueryType() ?? undefined;
  const holder = naming?.namespace ? getNamedType(root?.getFields()[naming.namespace]?.type) : undefined;
  let parent: GraphQLObjectType | undefined = naming?.namespace ? (isObjectType(holder) ? holder : undefined) : root;
  for (const [i, step] of remoteFieldSteps(rel.remoteField).entries()) {
    // The remote's name of a root field is looked up under the remote's root type's name.
    const name = parent && engineFieldName(naming, i === 0 && !naming?.namespace ? (naming?.queryRoot ?? '') : parent.name, step.name);
    const field = name === undefined ? undefined : parent?.getFields()[name];
    if (!field) throw new CompileError(`the remote relationship ${JSON.stringify(rel.name)} cannot be answered`);
    const argumentTypes: Record<string, GraphQLInputType> = {};
    for (const arg of field.args) if (isInputType(arg.type)) argumentTypes[arg.name] = arg.type;
    steps.push({ name: field.name, arguments: step.arguments, argumentTypes });
    const next = getNamedType(field.type);
    parent = isObjectType(next) ? next : undefined;
  }
  // The client's arguments and selections take their fragments and variables along.
  const { fragments, variables } = usedDefinitions([...(f.node.arguments ?? []), ...(f.selectionSet ? [f.selectionSet] : [])], env.fields.fragments);
  return {
    name: rel.name,
    path,
    remote: rel.remoteSchema,
    lhs: rel.lhs,
    steps,
    field: f.node,
    selectionSet: f.selectionSet,
    fragments: [...fragments.values()],
    variableDefinitions: (operation.variableDefinitions ?? []).filter((d) => variables.has(d.variable.name.value)),
    variables: Object.fromEntries(Object.entries(rawVariables).filter(([name]) => variables.has(name))),
    ...(names ? { names } : {}),
  };
}
