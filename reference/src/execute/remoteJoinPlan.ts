// Where an operation asks for remote relationships (decisions dec.remote-relationship.execution and
// dec.remote-relationship.to-source): found once per plan by following the operation's selections
// through the role's schema, so that the rows' answer can be completed from the remotes and the
// sources after the SQL has run.
import { relationshipFieldOf } from '../schema/generatedFields';
import { typeName } from '../schema/typeNames';
import { getNamedType, isInputType, isObjectType, type GraphQLInputType, type GraphQLObjectType, type OperationDefinitionNode } from 'graphql';
import { remoteFieldSteps } from '../../../spec';
import type { RemoteRelationshipModel, SourceRelationshipModel, TableModel } from '../schema/model';
import { CompileError, jsonObject, sql, type Fragment } from '../sql/graphql/context';
import { collectFields, type CollectedField } from '../sql/graphql/fields';
import type { SelectArgs, SelectEnvironment } from '../sql/graphql/select';
import { sourceJoinJson } from '../sql/graphql/sourceJoin';
import { compiledStatement } from './compile';
import type { Join, JoinStep, RemoteJoin, SourceJoin, SourceJoinGroup } from './plan';
import { namingOf, type CustomizedRemote } from '../remote/customization';
import { engineFieldName } from '../schema/remoteRelationshipField';
import { usedDefinitions } from './usedDefinitions';

export type { Join, JoinStep, RemoteJoin, SourceJoin, SourceJoinGroup } from './plan';

export const isSourceJoinGroup = (join: Join): join is SourceJoinGroup => 'plan' in join;

/** The remote joins of an operation's root fields answered by the database. */
export function remoteJoinsOf(
  env: SelectEnvironment,
  operation: OperationDefinitionNode,
  rootType: GraphQLObjectType,
  roots: readonly CollectedField[],
  rawVariables: Readonly<Record<string, unknown>>,
  remoteNames: ReadonlyMap<string, CustomizedRemote> = new Map(),
  bounded = false,
): Join[] {
  const byType = new Map<string, { table: TableModel; remote: RemoteRelationshipModel[]; source: SourceRelationshipModel[] }>();
  for (const t of env.models.values())
    if (t.remoteRelationships.length || t.sourceRelationships.length)
      byType.set(typeName(t), { table: t, remote: t.remoteRelationships, source: t.sourceRelationships });
  if (byType.size === 0) return [];
  const joins: Join[] = [];
  const toSources = new Map<string, { stage: number; source?: string; joins: SourceJoin[]; values: [string, Fragment][] }>();
  // Iterative: a selection may nest as deep as the limits allow.
  const pending: { type: GraphQLObjectType; fields: readonly CollectedField[]; path: string[]; stage: number }[] = [
    { type: rootType, fields: roots, path: [], stage: 0 },
  ];
  while (pending.length) {
    const { type, fields, path, stage } = pending.pop()!;
    const rels = byType.get(type.name);
    for (const f of fields) {
      const rel = rels?.remote.find((r) => r.name === f.name);
      if (rel) {
        joins.push({ ...join(env, operation, rel, f, [...path, f.alias], rawVariables, remoteNames.get(rel.remoteSchema)), stage });
        continue;
      }
      const toSource = rels?.source.find((r) => r.name === f.name || (r.kind === 'array' && relationshipFieldOf(rels.table, r.name, 'aggregate') === f.name));
      if (toSource) {
        const group = `${stage}\u0001${toSource.source ?? ''}`;
        if (!toSources.has(group))
          toSources.set(group, { stage, ...(toSource.source === undefined ? {} : { source: toSource.source }), joins: [], values: [] });
        const { joins: members, values } = toSources.get(group)!;
        const join = {
          path: [...path, f.alias],
          lhs: toSource.mapping.map(([c]) => c),
          keys: { joinKeys: `${group}\u0001${members.length}` },
        };
        members.push(join);
        values.push([
          String(values.length),
          sourceJoinJson(join.keys, env, toSource, env.models.get(toSource.targetKey)!, f.name !== toSource.name, f.args as SelectArgs, f.selectionSet),
        ]);
      }
      const named = f.definition ? getNamedType(f.definition.type) : undefined;
      if (named && isObjectType(named) && f.selectionSet)
        pending.push({ type: named, fields: collectFields(env.fields, named, f.selectionSet), path: [...path, f.alias], stage: toSource ? stage + 1 : stage });
    }
  }
  for (const { values, ...group } of toSources.values()) {
    const statement = compiledStatement('', sql.query`select ${jsonObject(values)}::text as data`);
    joins.push({ ...group, plan: { kind: 'query', bounded, operation: 'query', statements: [statement], literals: new Map(), order: [] } });
  }
  if (joins.length && operation.operation === 'subscription') throw new CompileError('Remote relationships are not allowed in subscriptions', 'not-supported');
  return joins;
}

function join(
  env: SelectEnvironment,
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
