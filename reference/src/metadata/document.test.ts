import { exportForm, withoutInconsistent } from './document';
import { findInconsistencies, introducedBy, introspectionOf } from './inconsistency';

const db = introspectionOf([{ schema: 'public', name: 'author', kind: 'r', oid: '1' }]);
const doc = {
  version: 2 as const,
  tables: [{ table: { schema: 'public', name: 'author' } }, { table: { schema: 'shop', name: 'order' } }],
};

describe('metadata document', () => {
  test('a tracked table missing from the database is inconsistent, named as in messages', () => {
    expect(findInconsistencies(doc, db)).toEqual([{ type: 'table', reason: 'no such table/view exists in postgres : "shop.order"', definition: 'shop.order' }]);
  });
  test('dropping inconsistent objects keeps the consistent ones', () => {
    expect(withoutInconsistent(doc, db)).toEqual({ version: 2, tables: [{ table: { schema: 'public', name: 'author' } }] });
  });
  test('export form keeps the tracking order', () => {
    expect(exportForm(doc).tables.map((t) => t.table.name)).toEqual(['author', 'order']);
  });
  test('introducedBy lists only new inconsistencies', () => {
    const all = findInconsistencies(doc, db);
    expect(introducedBy(all, all)).toEqual([]);
    expect(introducedBy([], all)).toEqual(all);
  });
});
