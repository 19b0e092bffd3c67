// Where and in which words the computed-field operations refuse a table that is not tracked, a
// field that is not there, and a permission naming one (decision dec.computed_fields.table-path,
// err.not-exists.computed-field, err.constraint-violation.permission), as the engine answers them.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();
const item = { schema: 'shopfn', name: 'item' };
const note = { schema: 'shopfn', name: 'note' };
const label = { function: { schema: 'shopfn', name: 'item_label' } };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const exported = async () => (await run('export_metadata', {})).body;

beforeEach(async () => {
  await target.reset();
  await target.sql(fixtureSql('shopfn'));
  expectResponse(
    await run('bulk', [
      { type: 'track_table', args: { table: item } },
      { type: 'add_computed_field', args: { table: item, name: 'label', definition: label } },
    ]),
    200,
  );
});

const unchanged = { version: 2, tables: [{ table: item, computed_fields: [{ name: 'label', definition: label }] }] };

test(covers(['dec.computed_fields.table-path', 'err.not-exists.table'], 'a table that is not tracked is refused at $.args.table'), async () => {
  const untracked = { path: '$.args.table', error: 'table "shopfn.note" does not exist', code: 'not-exists' };
  expectResponse(await run('add_computed_field', { table: note, name: 'label', definition: label }), 400, untracked);
  expectResponse(await run('drop_computed_field', { table: note, name: 'label' }), 400, untracked);
  const nowhere = { path: '$.args.table', error: 'table "shopfn.no_such_table" does not exist', code: 'not-exists' };
  expectResponse(await run('drop_computed_field', { table: { schema: 'shopfn', name: 'no_such_table' }, name: 'label' }), 400, nowhere);
  expect(await exported()).toEqual(unchanged);
});

test(covers(['err.not-exists.computed-field'], 'drop_computed_field of a name the table does not have is refused at $.args.name'), async () => {
  expectResponse(await run('drop_computed_field', { table: item, name: 'ghost' }), 400, {
    path: '$.args.name',
    error: 'computed field "ghost" does not exist',
    code: 'not-exists',
  });
  expect(await exported()).toEqual(unchanged);
});

test(
  covers(['err.constraint-violation.permission', 'err.not-exists.computed-field'], 'a select permission naming a computed field the table does not have'),
  async () => {
    const permission = { columns: ['id'], computed_fields: ['label', 'ghost'], filter: {} };
    expectResponse(await run('create_select_permission', { table: item, role: 'user', permission }), 400, {
      path: '$.args',
      error: 'in table "shopfn.item": in permission for role "user": computed field "ghost" does not exist',
      code: 'constraint-violation',
    });
    expect(await exported()).toEqual(unchanged);
  },
);

test(
  covers(
    ['rule.computed_field.name:refused', 'err.constraint-violation.computed-field-column', 'err.constraint-violation.computed-field-custom-column'],
    "a computed field named like a column (or its custom name) is an inconsistent object, reported as the engine reports it; the function's own problems come first",
  ),
  async () => {
    const conflicting = (name: string, reason: string) => ({
      path: '$.args',
      error: reason,
      code: 'constraint-violation',
      internal: [
        {
          type: 'computed_field',
          reason,
          definition: { definition: { function: label.function, table_argument: null }, name, comment: null, table: item },
        },
      ],
    });
    expectResponse(
      await run('add_computed_field', { table: item, name: 'title', definition: label }),
      400,
      conflicting('title', 'field definition conflicts with postgres column'),
    );
    // A function that cannot define the field is what the engine reports, whatever the name.
    expectResponse(await run('add_computed_field', { table: item, name: 'price', definition: { function: { schema: 'shopfn', name: 'tags' } } }), 400, {
      path: '$.args',
      error:
        'in table "shopfn.item": in computed field "price": function "shopfn.tags" cannot define a computed field: it must return a base type or SETOF a tracked table, but returns SETOF text',
      code: 'constraint-violation',
    });
    expect(await exported()).toEqual(unchanged);
    const customised = { custom_column_names: { title: 'heading' } };
    expectResponse(await run('set_table_customization', { table: item, configuration: customised }), 200, { message: 'success' });
    expectResponse(
      await run('add_computed_field', { table: item, name: 'heading', definition: label }),
      400,
      conflicting('heading', 'field definition conflicts with custom field name for postgres column "title"'),
    );
    expect(await exported()).toEqual({ ...unchanged, tables: [{ ...unchanged.tables[0], configuration: customised }] });
  },
);
