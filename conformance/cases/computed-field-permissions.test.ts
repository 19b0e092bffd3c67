// A select permission never lists a computed field that returns rows of a table (decision
// dec.computed_fields.permissions), whatever the role may read of that table: the field follows
// the permissions of the table it returns.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();
const item = { schema: 'shopfn', name: 'item' };
const note = { schema: 'shopfn', name: 'note' };
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const exported = async () => (await run('export_metadata', {})).body;
const selectItems = (computed_fields: string[]) => ({ table: item, role: 'user', permission: { columns: ['id'], computed_fields, filter: {} } });
const refused = {
  path: '$.args',
  error:
    'in table "shopfn.item": in permission for role "user": select permissions on computed field "notes" are auto-derived from the permissions on its returning table "shopfn.note" and cannot be specified manually',
  code: 'constraint-violation',
};

beforeEach(async () => {
  await target.reset();
  await target.sql(fixtureSql('shopfn'));
  await target.sql(
    'create function shopfn.item_notes(i shopfn.item) returns setof shopfn.note language sql stable as $$ select * from shopfn.note where id = i.id $$',
  );
  expectResponse(
    await run('bulk', [
      { type: 'track_table', args: { table: item } },
      { type: 'track_table', args: { table: note } },
      { type: 'add_computed_field', args: { table: item, name: 'label', definition: { function: { schema: 'shopfn', name: 'item_label' } } } },
      { type: 'add_computed_field', args: { table: item, name: 'notes', definition: { function: { schema: 'shopfn', name: 'item_notes' } } } },
    ]),
    200,
  );
});

test(
  covers(
    ['dec.computed_fields.permissions', 'err.constraint-violation.computed-field-permission', 'op.create_select_permission'],
    'a computed field returning rows of another table is refused in computed_fields, whether or not the role may read that table',
  ),
  async () => {
    const before = await exported();
    // The role reads nothing of shopfn.note yet.
    expectResponse(await run('create_select_permission', selectItems(['label', 'notes'])), 400, refused);
    expect(await exported()).toEqual(before);
    expectResponse(await run('create_select_permission', { table: note, role: 'user', permission: { columns: ['id'], filter: {} } }), 200, ok);
    expectResponse(await run('create_select_permission', selectItems(['notes'])), 400, refused);
    // A scalar one is listed.
    expectResponse(await run('create_select_permission', selectItems(['label'])), 200, ok);
  },
);

test(
  covers(
    ['dec.computed_fields.permissions', 'err.constraint-violation.computed-field-permission', 'op.replace_metadata.v1'],
    'replace_metadata refuses it alike',
  ),
  async () => {
    const document = (await exported()) as { version: number; tables: { table: unknown }[] };
    const listed = {
      ...document,
      tables: document.tables.map((t) =>
        JSON.stringify(t.table) === JSON.stringify(item) ? { ...t, select_permissions: [{ role: 'user', permission: selectItems(['notes']).permission }] } : t,
      ),
    };
    expectResponse(await run('replace_metadata', listed), 400, refused);
    expect(await exported()).toEqual(document);
  },
);
