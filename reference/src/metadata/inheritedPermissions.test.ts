import type { MetadataDocument } from '../../../spec';
import { withInheritedPermissions } from './inheritedPermissions';

const table = { schema: 'music', name: 'artist' };
const fan = { columns: ['id'], filter: { country: { _eq: 'US' } } };
const critic = { columns: ['id', 'name'], filter: { country: { _eq: 'NO' } }, limit: 5, allow_aggregations: true };

test("an inherited role's select permission is its parents' grants together; its own wins", () => {
  const document = {
    version: 2,
    tables: [
      {
        table,
        select_permissions: [
          { role: 'fan', permission: fan },
          { role: 'critic', permission: critic },
        ],
      },
    ],
    inherited_roles: [
      { role_name: 'audience', role_set: ['fan', 'critic'] },
      { role_name: 'everyone', role_set: ['audience'] },
    ],
  } as unknown as MetadataDocument;
  const combined = {
    columns: ['id', 'name'],
    filter: { _or: [fan.filter, critic.filter] },
    limit: 5,
    allow_aggregations: true,
    grants: [fan, critic],
  };
  expect(withInheritedPermissions(document).document.tables[0]!.select_permissions).toEqual([
    { role: 'fan', permission: fan },
    { role: 'critic', permission: critic },
    { role: 'audience', permission: combined },
    { role: 'everyone', permission: combined },
  ]);
  expect(withInheritedPermissions(document).conflicts).toEqual([]);
});

test('insert, update and delete permissions are inherited when the parents agree, else reported', () => {
  const document = {
    version: 2,
    tables: [
      {
        table,
        insert_permissions: [
          { role: 'fan', permission: { columns: ['id', 'name'], check: { _and: [{ id: { _gt: 1 } }, { id: { _lt: 9 } }] } } },
          { role: 'critic', permission: { columns: ['name', 'id'], check: { _and: [{ id: { _lt: 9 } }, { id: { _gt: 1 } }] }, comment: 'same' } },
        ],
        delete_permissions: [
          { role: 'fan', permission: { filter: {} } },
          { role: 'critic', permission: { filter: { id: { _eq: 1 } } } },
        ],
      },
    ],
    inherited_roles: [{ role_name: 'audience', role_set: ['fan', 'critic'] }],
  } as unknown as MetadataDocument;
  const { document: out, conflicts } = withInheritedPermissions(document);
  expect(out.tables[0]!.insert_permissions?.map((p) => p.role)).toEqual(['fan', 'critic', 'audience']);
  expect(out.tables[0]!.delete_permissions?.map((p) => p.role)).toEqual(['fan', 'critic']);
  expect(conflicts).toEqual([{ role: 'audience', entity: { table: 'music.artist', source: 'default', permission_type: 'delete' } }]);
});
