// Inherited roles (decision dec.inherited-roles): a role made of a set of parent roles, which may
// themselves be inherited. Pure functions over the document: the operations, the roles a document
// knows, and the order in which inherited roles are resolved (parents first; no cycles).
import { PERMISSION_TYPES, permissionListKey, type InheritedRole, type MetadataDocument } from '../../../spec';
import { engineError } from '../errors';
import { sourcesOf } from './sources';

export const inheritedRolesOf = (document: MetadataDocument): readonly InheritedRole[] => document.inherited_roles ?? [];

function withInheritedRoles(document: MetadataDocument, roles: readonly InheritedRole[]): MetadataDocument {
  const { inherited_roles: _old, ...rest } = document;
  return roles.length ? { ...rest, inherited_roles: [...roles] } : rest;
}

/** add_inherited_role: a role of the same name is replaced, as the engine replaces it. */
export function addInheritedRole(document: MetadataDocument, role: InheritedRole): MetadataDocument {
  if (role.role_set.includes(role.role_name)) throw engineError('invalid-params.inherited-role-in-set', '$.args');
  const roles = inheritedRolesOf(document);
  const at = roles.findIndex((r) => r.role_name === role.role_name);
  const next = at < 0 ? [...roles, role] : roles.map((r, i) => (i === at ? role : r));
  const added = withInheritedRoles(document, next);
  const missing = missingParents(added, role);
  if (missing.length) throw engineError('not-exists.parent-roles', '$.args', [missing.join(', '), JSON.stringify(role.role_name)]);
  orderedInheritedRoles(added);
  return added;
}

export function dropInheritedRole(document: MetadataDocument, args: { role_name: string }): MetadataDocument {
  const roles = inheritedRolesOf(document);
  if (!roles.some((r) => r.role_name === args.role_name)) throw engineError('not-exists.inherited-role', '$.args', [JSON.stringify(args.role_name)]);
  return withInheritedRoles(
    document,
    roles.filter((r) => r.role_name !== args.role_name),
  );
}

/** Every role the document names: in a permission of any kind, or as an inherited role. */
export function knownRoles(document: MetadataDocument): Set<string> {
  const roles = new Set<string>(inheritedRolesOf(document).map((r) => r.role_name));
  for (const part of [document, ...sourcesOf(document)]) {
    for (const t of part.tables) for (const type of PERMISSION_TYPES) for (const p of t[permissionListKey(type)] ?? []) roles.add(p.role);
    for (const f of part.functions ?? []) for (const p of f.permissions ?? []) roles.add(p.role);
  }
  for (const a of document.actions ?? []) for (const p of a.permissions ?? []) roles.add(p.role);
  for (const r of document.remote_schemas ?? []) for (const p of r.permissions ?? []) roles.add(p.role);
  return roles;
}

/** The parent roles of an inherited role that the document does not know, in its order. */
export function missingParents(document: MetadataDocument, role: InheritedRole, known = knownRoles(document)): string[] {
  return role.role_set.filter((r) => !known.has(r));
}

/**
 * The inherited roles whose parents all exist, each after the inherited roles among its parents;
 * a cycle among them is refused with the engine's error, naming each cycle from a role back to it.
 */
export function orderedInheritedRoles(document: MetadataDocument): InheritedRole[] {
  const known = knownRoles(document);
  const byName = new Map(inheritedRolesOf(document).map((r) => [r.role_name, r]));
  const ordered: InheritedRole[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const cycles: string[][] = [];
  const visit = (role: InheritedRole, path: string[]) => {
    state.set(role.role_name, 'visiting');
    for (const parent of role.role_set) {
      const inherited = byName.get(parent);
      if (!inherited) continue;
      if (state.get(parent) === 'visiting') {
        const from = path.indexOf(parent);
        cycles.push([...path.slice(from), parent]);
      } else if (state.get(parent) !== 'done') visit(inherited, [...path, parent]);
    }
    state.set(role.role_name, 'done');
    ordered.push(role);
  };
  for (const role of byName.values()) if (!state.has(role.role_name)) visit(role, [role.role_name]);
  if (cycles.length) throw engineError('cyclic-dependency.roles', '$.args', [cycles.map((c) => JSON.stringify(c)).join(', ')]);
  // A role whose parents are missing is inconsistent (inheritedRoleProblems), and so is one built on it.
  const usable = new Set<string>();
  return ordered.filter((role) => {
    const ok = role.role_set.every((p) => known.has(p) && (!byName.has(p) || usable.has(p)));
    if (ok) usable.add(role.role_name);
    return ok;
  });
}

/** Inherited roles that cannot be made, with the reason (a parent the document does not know). */
export function inheritedRoleProblems(document: MetadataDocument): { role: InheritedRole; reason: string }[] {
  const known = knownRoles(document);
  return inheritedRolesOf(document).flatMap((role) => {
    const missing = missingParents(document, role, known);
    return missing.length ? [{ role, reason: engineError('not-exists.parent-roles', '$', [missing.join(', '), JSON.stringify(role.role_name)]).message }] : [];
  });
}
