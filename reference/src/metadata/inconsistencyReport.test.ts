import { reportInconsistencies } from './inconsistencyReport';
import type { InconsistentObject } from './inconsistency';

const author = { schema: 'public', name: 'author' };
const item = { schema: 'shop', name: 'item' };

describe('inconsistent objects as reported', () => {
  test("each kind takes the engine's name: kind, name, and where it is (tables and functions of public named bare)", () => {
    const objects: InconsistentObject[] = [
      { type: 'table', reason: 'r', definition: 'shop.item' },
      { type: 'table', reason: 'r', definition: author, source: 'books' },
      { type: 'function', reason: 'r', definition: { function: { schema: 'shop', name: 'search' } } },
      { type: 'object_relation', reason: 'r', definition: { table: author, name: 'pick' } },
      { type: 'array_relation', reason: 'r', definition: { table: item, name: 'notes' } },
      { type: 'computed_field', reason: 'r', definition: { table: item, name: 'label', definition: { function: { schema: 'shop', name: 'label' } } } },
      { type: 'remote_relationship', reason: 'r', definition: { table: item, name: 'origin', definition: {} as never }, source: 'books' },
      { type: 'insert_permission', reason: 'r', definition: { table: item, role: 'user', permission: {} } },
      { type: 'select_permission', reason: 'r', definition: { table: item, role: 'user', permission: {} } },
      { type: 'update_permission', reason: 'r', definition: { table: item, role: 'user', permission: {} } },
      { type: 'delete_permission', reason: 'r', definition: { table: item, role: 'user', permission: {} } },
      { type: 'remote_schema', reason: 'r', definition: { name: 'weather' } as never },
      { type: 'remote_schema_permission', reason: 'r', definition: { remote_schema: 'weather', role: 'user', definition: { schema: '' } } },
      { type: 'action', reason: 'r', definition: { name: 'quote' } as never },
      { type: 'rest_endpoint', reason: 'r', definition: { name: 'artists' } as never },
    ];
    expect(reportInconsistencies(objects).map((o) => o.name)).toEqual([
      'table shop.item in source default',
      'table author in source books',
      'function shop.search in source default',
      'object_relation pick in table author in source default',
      'array_relation notes in table shop.item in source default',
      'computed_field label in table shop.item in source default',
      'remote_relationship origin in table shop.item in source books',
      'insert_permission user in table shop.item in source default',
      'select_permission user in table shop.item in source default',
      'update_permission user in table shop.item in source default',
      'delete_permission user in table shop.item in source default',
      'remote_schema weather',
      'remote_schema_permission user permission in remote schema weather',
      'action quote',
      'rest_endpoint artists',
    ]);
  });

  test('the reason is said once after "Inconsistent object: ", the name comes after the type, and a source is reported as it is', () => {
    const source = {
      type: 'source' as const,
      name: 'source lost',
      definition: 'lost',
      reason: 'Inconsistent object: connection error',
      message: 'could not connect',
    };
    expect(
      reportInconsistencies([
        { type: 'table', reason: 'no such table/view exists in postgres : "shop.item"', definition: 'shop.item' },
        { type: 'table', reason: 'Inconsistent object: already said', definition: 'shop.item' },
        source,
      ]),
    ).toEqual([
      {
        type: 'table',
        name: 'table shop.item in source default',
        reason: 'Inconsistent object: no such table/view exists in postgres : "shop.item"',
        definition: 'shop.item',
      },
      { type: 'table', name: 'table shop.item in source default', reason: 'Inconsistent object: already said', definition: 'shop.item' },
      source,
    ]);
    // A source's object is passed on whole, its keys in its own order.
    expect(Object.keys(reportInconsistencies([source])[0]!)).toEqual(['type', 'name', 'definition', 'reason', 'message']);
    expect(Object.keys(reportInconsistencies([{ type: 'table', reason: 'r', definition: 'shop.item', source: 'books' }])[0]!)).toEqual([
      'type',
      'name',
      'reason',
      'definition',
      'source',
    ]);
  });
});
