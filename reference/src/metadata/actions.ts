// Actions and their permissions as pure functions over the document; set_custom_types (which
// actions depend on) lives here too, so that a type in use cannot go.
import type { Action, CustomTypes, MetadataDocument } from '../../../spec';
import type { Introspection } from '../db/introspection';
import { engineError } from '../errors';
import { isGraphQLName } from './naming';
import { customTypeKinds, namedTypeOf, typeProblem, validateCustomTypes } from './customTypes';

export const actionsOf = (document: MetadataDocument): readonly Action[] => document.actions ?? [];

export function withActions(document: MetadataDocument, actions: readonly Action[]): MetadataDocument {
  const { actions: _old, ...rest } = document;
  return actions.length ? { ...rest, actions: [...actions] } : rest;
}

export function withCustomTypes(document: MetadataDocument, types: CustomTypes): MetadataDocument {
  const { custom_types: _old, ...rest } = document;
  return Object.keys(types).length ? { ...rest, custom_types: types } : rest;
}

/** Refusals found while an operation runs are at $.args, as the engine answers them; only parsing names a deeper path. */
export function findAction(document: MetadataDocument, name: string): Action {
  const found = actionsOf(document).find((a) => a.name === name);
  if (!found) throw engineError('not-exists.action', '$.args', [JSON.stringify(name)]);
  return found;
}

/** Why an action's arguments or output type do not fit the custom types, or undefined. */
export function actionProblem(action: Action, types: CustomTypes | undefined, postgresScalars: ReadonlySet<string> = new Set()): string | undefined {
  const kinds = customTypeKinds(types, postgresScalars);
  const names = new Set<string>();
  for (const a of action.definition.arguments ?? []) {
    if (!isGraphQLName(a.name)) return `the argument name ${JSON.stringify(a.name)} is not a valid GraphQL name`;
    if (names.has(a.name)) return `the argument ${JSON.stringify(a.name)} is defined more than once`;
    names.add(a.name);
    const problem = typeProblem(a.type, kinds, 'input');
    if (problem) return `argument ${JSON.stringify(a.name)}: ${problem}`;
  }
  const output = typeProblem(action.definition.output_type, kinds, 'output');
  if (output) return `output_type: ${output}`;
  return undefined;
}

function checked(action: Action, document: MetadataDocument, postgresScalars: ReadonlySet<string>): Action {
  if (!isGraphQLName(action.name))
    throw engineError('validation-failed.action', '$.args', [JSON.stringify(action.name), 'the name is not a valid GraphQL name']);
  const problem = actionProblem(action, document.custom_types, postgresScalars);
  if (problem) throw engineError('validation-failed.action', '$.args', [JSON.stringify(action.name), problem]);
  return action;
}

export function createAction(
  document: MetadataDocument,
  args: { name: string; definition: Action['definition']; comment?: string | null },
  postgresScalars: ReadonlySet<string> = new Set(),
): MetadataDocument {
  if (actionsOf(document).some((a) => a.name === args.name)) throw engineError('already-exists.action', '$.args', [JSON.stringify(args.name)]);
  const action = checked(
    { name: args.name, definition: args.definition, ...(typeof args.comment === 'string' ? { comment: args.comment } : {}) },
    document,
    postgresScalars,
  );
  return withActions(document, [...actionsOf(document), action]);
}

/** A new definition (and comment, when given); the permissions stay. */
export function updateAction(
  document: MetadataDocument,
  args: { name: string; definition: Action['definition']; comment?: string | null },
  postgresScalars: ReadonlySet<string> = new Set(),
): MetadataDocument {
  const old = findAction(document, args.name);
  const { comment: oldComment, ...rest } = old;
  const comment = args.comment === undefined ? oldComment : (args.comment ?? undefined);
  const action = checked({ ...rest, definition: args.definition, ...(typeof comment === 'string' ? { comment } : {}) }, document, postgresScalars);
  return withActions(
    document,
    actionsOf(document).map((a) => (a.name === args.name ? action : a)),
  );
}

export function dropAction(document: MetadataDocument, name: string): MetadataDocument {
  findAction(document, name);
  return withActions(
    document,
    actionsOf(document).filter((a) => a.name !== name),
  );
}

export function createActionPermission(document: MetadataDocument, args: { action: string; role: string; comment?: string | null }): MetadataDocument {
  const action = findAction(document, args.action);
  // The engine's order: a permission already there is named before the permission itself is checked.
  if ((action.permissions ?? []).some((p) => p.role === args.role))
    throw engineError('already-exists.action-permission', '$.args', [JSON.stringify(args.role), JSON.stringify(args.action)]);
  if (args.role === 'admin') throw engineError('constraint-violation.admin-action-permission', '$.args', [JSON.stringify(args.action)]);
  const permission = { role: args.role, ...(typeof args.comment === 'string' ? { comment: args.comment } : {}) };
  return withActions(
    document,
    actionsOf(document).map((a) => (a === action ? { ...a, permissions: [...(a.permissions ?? []), permission] } : a)),
  );
}

export function dropActionPermission(document: MetadataDocument, args: { action: string; role: string }): MetadataDocument {
  const action = findAction(document, args.action);
  if (!(action.permissions ?? []).some((p) => p.role === args.role))
    throw engineError('not-exists.action-permission', '$.args', [JSON.stringify(args.role), JSON.stringify(args.action)]);
  return withActions(
    document,
    actionsOf(document).map((a) => {
      if (a !== action) return a;
      const { permissions, ...rest } = a;
      const left = (permissions ?? []).filter((p) => p.role !== args.role);
      return left.length ? { ...rest, permissions: left } : rest;
    }),
  );
}

/** set_custom_types: the new types replace the old, unless an action uses a type they leave out. */
export function setCustomTypes(
  document: MetadataDocument,
  db: Introspection,
  types: CustomTypes,
  postgresScalars: ReadonlySet<string> = new Set(),
): MetadataDocument {
  validateCustomTypes(types, document, db, postgresScalars);
  const kinds = customTypeKinds(types, postgresScalars);
  const broken = actionsOf(document).filter((a) => actionProblem(a, types, postgresScalars) !== undefined);
  if (broken.length > 0) {
    const missing = broken.map((a) => {
      const used = [...(a.definition.arguments ?? []).map((x) => x.type), a.definition.output_type]
        .map(namedTypeOf)
        .find((n) => n !== undefined && !kinds.has(n));
      return `action ${JSON.stringify(a.name)}${used ? ` (uses ${JSON.stringify(used)})` : ''}`;
    });
    throw engineError('dependency-error.drop', '$.args', [missing.join(', ')]);
  }
  return withCustomTypes(document, types);
}

/** Who may use an action: admin, and the roles its permissions name. */
export const actionAllowed = (action: Action, role: string) => role === 'admin' || (action.permissions ?? []).some((p) => p.role === role);
