import type { MetadataDocument } from '../../../spec';
import { EngineError } from '../errors';
import { addInheritedRole, inheritedRoleProblems, orderedInheritedRoles } from './inheritedRoles';

const table = { schema: 'public', name: 't' };
const base = {
  version: 2,
  tables: [{ table, select_permissions: ['a', 'b'].map((role) => ({ role, permission: { columns: ['id'], filter: {} } })) }],
} as unknown as MetadataDocument;
const withRoles = (inherited_roles: { role_name: string; role_set: string[] }[]) => ({ ...base, inherited_roles }) as MetadataDocument;

test('inherited roles are resolved parents first; one built on a role with a missing parent is left out', () => {
  const document = withRoles([
    { role_name: 'top', role_set: ['mid', 'a'] },
    { role_name: 'mid', role_set: ['a', 'b'] },
    { role_name: 'lost', role_set: ['ghost'] },
    { role_name: 'above_lost', role_set: ['lost'] },
  ]);
  expect(orderedInheritedRoles(document).map((r) => r.role_name)).toEqual(['mid', 'top']);
  expect(inheritedRoleProblems(document)).toEqual([
    {
      role: { role_name: 'lost', role_set: ['ghost'] },
      reason: 'the following parent role(s) are not found: ghost which are required to construct the inherited role: "lost"',
    },
  ]);
});

test('a cycle is refused, naming it from a role back to that role', () => {
  const refusal = (() => {
    try {
      orderedInheritedRoles(
        withRoles([
          { role_name: 'x', role_set: ['y'] },
          { role_name: 'y', role_set: ['z', 'a'] },
          { role_name: 'z', role_set: ['x'] },
        ]),
      );
    } catch (error) {
      return error;
    }
    return undefined;
  })();
  expect(refusal).toBeInstanceOf(EngineError);
  expect((refusal as EngineError).message).toBe('found cycle(s) in roles: ["x","y","z","x"]');
});

test('add_inherited_role replaces a role of the same name and refuses unknown parents', () => {
  const once = addInheritedRole(base, { role_name: 'both', role_set: ['a', 'b'] });
  expect(addInheritedRole(once, { role_name: 'both', role_set: ['b'] }).inherited_roles).toEqual([{ role_name: 'both', role_set: ['b'] }]);
  expect(() => addInheritedRole(base, { role_name: 'c', role_set: ['a', 'nobody'] })).toThrow(
    'the following parent role(s) are not found: nobody which are required to construct the inherited role: "c"',
  );
});
