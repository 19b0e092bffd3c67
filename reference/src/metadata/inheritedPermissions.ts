// What inherited roles may do (decision dec.inherited-roles), as the engine derives it: the
// document with each inherited role's permissions filled in from its parents', for the schema
// builder alone (never stored). A permission given to the inherited role itself wins.
// - select: the parents' select permissions together. Each is kept as a grant: a row is read when
//   some grant's filter holds; a column or computed field is read where the filter of some grant
//   that lists it holds (null elsewhere), or always when every grant lists it; the limit is the
//   largest one set; aggregations when some grant allows them.
// - insert, update, delete, remote schemas: the parents' permission when all parents that have one
//   have the same; else none, and the role and entity are reported (not droppable).
// - functions and actions: allowed when some parent is.
import { parse, print, type DefinitionNode, type DocumentNode } from 'graphql';
import type { BoolExp, MetadataDocument, PermissionEntry, PermissionType, SelectPermission, TableEntry } from '../../../spec';
import { permissionListKey } from '../../../spec';
import type { InconsistentObject } from './inconsistency';
import { inheritedRoleProblems, orderedInheritedRoles } from './inheritedRoles';

/** A select permission of an inherited role: the grants of its parents when there is more than one. */
export type InheritedSelectPermission = SelectPermission & { grants?: SelectPermission[] };

/** A permission an inherited role cannot inherit: its parents disagree. */
export interface InheritanceConflict {
  role: string;
  entity: { table: string; source: string; permission_type: Exclude<PermissionType, 'select'> } | { remote_schema: string };
}

const derived = new WeakMap<MetadataDocument, { document: MetadataDocument; conflicts: InheritanceConflict[] }>();

/** The document with the inherited roles' permissions filled in, and the permissions their parents disagree on. */
export function withInheritedPermissions(document: MetadataDocument): { document: MetadataDocument; conflicts: InheritanceConflict[] } {
  let found = derived.get(document);
  if (!found) derived.set(document, (found = derive(document)));
  return found;
}

function derive(document: MetadataDocument): { document: MetadataDocument; conflicts: InheritanceConflict[] } {
  if (!document.inherited_roles?.length) return { document, conflicts: [] };
  let roles;
  try {
    roles = orderedInheritedRoles(document);
  } catch {
    // A cycle: refused wherever the document is taken; nothing is derived from it.
    return { document, conflicts: [] };
  }
  const conflicts: InheritanceConflict[] = [];
  const inTables = (tables: TableEntry[], source: string) => tables.map((t) => roles.reduce((entry, role) => inheritTable(entry, role, source, conflicts), t));
  let out: MetadataDocument = { ...document, tables: inTables(document.tables, 'default') };
  if (document.sources) out = { ...out, sources: document.sources.map((s) => ({ ...s, tables: inTables(s.tables, s.name) })) };
  for (const role of roles) out = inheritOthers(out, role, conflicts);
  return { document: out, conflicts };
}

type Role = { role_name: string; role_set: string[] };

function inheritTable(entry: TableEntry, role: Role, source: string, conflicts: InheritanceConflict[]): TableEntry {
  let out = entry;
  const own = <P>(list: PermissionEntry<P>[] | undefined) => list?.find((p) => p.role === role.role_name);
  const ofParents = <P>(list: PermissionEntry<P>[] | undefined) => role.role_set.flatMap((r) => list?.filter((p) => p.role === r) ?? []);
  if (!own(entry.select_permissions)) {
    const parents = ofParents(entry.select_permissions as PermissionEntry<InheritedSelectPermission>[] | undefined);
    if (parents.length) out = { ...out, select_permissions: [...(out.select_permissions ?? []), { role: role.role_name, permission: combine(parents) }] };
  }
  for (const type of ['insert', 'update', 'delete'] as const) {
    const key = permissionListKey(type);
    const list = entry[key] as PermissionEntry<Record<string, unknown>>[] | undefined;
    if (own(list)) continue;
    const parents = ofParents(list);
    if (parents.length === 0) continue;
    if (parents.every((p) => sameMutationPermission(p.permission, parents[0]!.permission))) {
      out = { ...out, [key]: [...((out[key] as unknown[] | undefined) ?? []), { role: role.role_name, permission: parents[0]!.permission }] };
    } else {
      conflicts.push({ role: role.role_name, entity: { table: displayTable(entry), source, permission_type: type } });
    }
  }
  return out;
}

const displayTable = (entry: TableEntry) => (entry.table.schema === 'public' ? entry.table.name : `${entry.table.schema}.${entry.table.name}`);

/** The parents' select permissions as one, each kept as a grant. */
function combine(parents: PermissionEntry<InheritedSelectPermission>[]): InheritedSelectPermission {
  const grants = parents.flatMap((p) => p.permission.grants ?? [p.permission]);
  if (grants.length === 1) return grants[0]!;
  const columns = grants.some((g) => g.columns === '*') ? '*' : [...new Set(grants.flatMap((g) => g.columns as string[]))];
  const computed = [...new Set(grants.flatMap((g) => g.computed_fields ?? []))];
  const limits = grants.flatMap((g) => (g.limit === undefined ? [] : [g.limit]));
  return {
    columns,
    ...(computed.length ? { computed_fields: computed } : {}),
    filter: { _or: grants.map((g) => g.filter) },
    ...(limits.length ? { limit: Math.max(...limits) } : {}),
    ...(grants.some((g) => g.allow_aggregations) ? { allow_aggregations: true } : {}),
    grants,
  };
}

/**
 * Where an inherited role's select permission shows a column or computed field of a row: always
 * (undefined), or where this filter holds. `listed` tells whether a grant lists it.
 */
export function visibility(permission: InheritedSelectPermission, listed: (grant: SelectPermission) => boolean): BoolExp | undefined {
  const grants = permission.grants;
  if (!grants) return undefined;
  const granting = grants.filter(listed);
  if (granting.length === grants.length) return undefined;
  return granting.length === 1 ? granting[0]!.filter : { _or: granting.map((g) => g.filter) };
}

/** Insert, update and delete permissions are the same when they say the same (lists as sets, and/or operands in any order). */
function sameMutationPermission(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const { comment: _a, ...left } = a;
  const { comment: _b, ...right } = b;
  return canonical(left) === canonical(right);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return JSON.stringify(value.map(canonical).sort());
  if (value && typeof value === 'object')
    return `{${Object.entries(value)
      .sort(([x], [y]) => (x < y ? -1 : 1))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/** Functions and actions: allowed when some parent is. Remote schemas: the parents' permission when they agree. */
function inheritOthers(document: MetadataDocument, role: Role, conflicts: InheritanceConflict[]): MetadataDocument {
  const name = role.role_name;
  const fromParents = <T extends { permissions?: { role: string }[] }>(item: T): T => {
    const permissions = item.permissions ?? [];
    if (permissions.some((p) => p.role === name) || !permissions.some((p) => role.role_set.includes(p.role))) return item;
    return { ...item, permissions: [...permissions, { role: name }] };
  };
  let out: MetadataDocument = document;
  if (document.functions) out = { ...out, functions: document.functions.map(fromParents) };
  if (out.sources) out = { ...out, sources: out.sources.map((s) => (s.functions ? { ...s, functions: s.functions.map(fromParents) } : s)) };
  if (document.actions) out = { ...out, actions: document.actions.map(fromParents) };
  if (document.remote_schemas) {
    out = {
      ...out,
      remote_schemas: document.remote_schemas.map((remote) => {
        const permissions = remote.permissions ?? [];
        const parents = permissions.filter((p) => role.role_set.includes(p.role));
        if (permissions.some((p) => p.role === name) || parents.length === 0) return remote;
        const first = normalisedSdl(parents[0]!.definition.schema);
        if (parents.some((p) => normalisedSdl(p.definition.schema) !== first)) {
          conflicts.push({ role: name, entity: { remote_schema: remote.name } });
          return remote;
        }
        return { ...remote, permissions: [...permissions, { role: name, definition: { schema: parents[0]!.definition.schema } }] };
      }),
    };
  }
  return out;
}

/** An SDL document in an order of its own: types, fields, arguments and values by name. */
function normalisedSdl(text: string): string {
  let document: DocumentNode;
  try {
    document = parse(text, { noLocation: true });
  } catch {
    return text;
  }
  const byName = <N extends { name?: { value: string } }>(nodes: readonly N[] | undefined) =>
    nodes && [...nodes].sort((a, b) => ((a.name?.value ?? '') < (b.name?.value ?? '') ? -1 : 1));
  const sortNode = (node: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...node };
    for (const key of ['fields', 'arguments', 'values', 'interfaces', 'types', 'directives']) {
      const list = out[key] as Record<string, unknown>[] | undefined;
      if (Array.isArray(list)) out[key] = byName(list.map(sortNode) as { name?: { value: string } }[]);
    }
    delete out.description;
    return out;
  };
  const definitions = byName(document.definitions.map((d) => sortNode(d as unknown as Record<string, unknown>)) as { name?: { value: string } }[]);
  return print({ ...document, definitions: definitions as unknown as DefinitionNode[] });
}

/** The permissions inherited roles have on a remote schema through their parents (not their own). */
export function inheritedRemotePermissions(document: MetadataDocument, remote: string): { role: string; definition: { schema: string } }[] {
  const own = new Set((document.remote_schemas?.find((r) => r.name === remote)?.permissions ?? []).map((p) => p.role));
  const derivedRemote = withInheritedPermissions(document).document.remote_schemas?.find((r) => r.name === remote);
  return (derivedRemote?.permissions ?? []).filter((p) => !own.has(p.role));
}

/** What of the inherited roles cannot be served: roles whose parents are missing, and permissions their parents disagree on. */
export function inheritedRoleInconsistencies(document: MetadataDocument): InconsistentObject[] {
  const missing = inheritedRoleProblems(document).map(({ role, reason }): InconsistentObject => ({
    type: 'inherited_role',
    reason,
    name: role.role_name,
    definition: role,
  }));
  const conflicts = withInheritedPermissions(document).conflicts.map(({ role, entity }): InconsistentObject => ({
    type: 'inherited role permission inconsistency',
    reason: `Could not inherit permission for the role '${role}' for the entity: '${
      'remote_schema' in entity
        ? `remote schema: '${entity.remote_schema}'`
        : `${entity.permission_type} permission, table: ${entity.table}, source: '${entity.source}'`
    }'`,
    name: role,
    entity,
  }));
  return [...missing, ...conflicts];
}
