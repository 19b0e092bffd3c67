import { useDatabase } from '../../../conformance/harness/database';
import { loadFunctions } from '../sql/loadIntrospection';

const db = useDatabase('all');

beforeAll(async () => {
  await db.client.query(`
    create schema shop;
    create table shop.item (id int primary key, title text);
    create function shop.search_items(search text, max_rows int default 10) returns setof shop.item
      language sql stable as $$ select * from shop.item where title ilike '%' || search || '%' limit max_rows $$;
    comment on function shop.search_items(text, int) is 'items by title';
    create function shop.add(int, int) returns int language sql immutable as $$ select $1 + $2 $$;
    create function shop.add(numeric, numeric) returns numeric language sql immutable as $$ select $1 + $2 $$;
    create function shop.touch() returns void language plpgsql as $$ begin end $$;
    create procedure shop.not_a_function() language sql as $$ select 1 $$;
  `);
});

const withoutOids = <T extends { oid: string }>(rows: T[]) => rows.map(({ oid, ...rest }) => (expect(oid).toMatch(/^\d+$/), rest));

describe('function introspection', () => {
  test('a set-returning function over a table: arguments, defaults, volatility, the relation it returns, comment', async () => {
    expect(withoutOids(await loadFunctions(db.client, [{ schema: 'shop', name: 'search_items' }]))).toEqual([
      {
        schema: 'shop',
        name: 'search_items',
        volatility: 'STABLE',
        returns_set: true,
        only_in_arguments: true,
        return_type: 'item',
        return_type_schema: 'shop',
        return_type_kind: 'c',
        return_relation: { schema: 'shop', name: 'item' },
        language: 'sql',
        comment: 'items by title',
        arguments: [
          { name: 'search', type: 'text', type_schema: 'pg_catalog', type_kind: 'b', has_default: false },
          { name: 'max_rows', type: 'int4', type_schema: 'pg_catalog', type_kind: 'b', has_default: true },
        ],
      },
    ]);
  });

  test('every overload, unnamed arguments, void functions; procedures and unknown names are not functions', async () => {
    const found = await loadFunctions(db.client, [
      { schema: 'shop', name: 'add' },
      { schema: 'shop', name: 'touch' },
      { schema: 'shop', name: 'not_a_function' },
      { schema: 'shop', name: 'missing' },
    ]);
    expect(
      found.map((f) => [
        f.name,
        f.volatility,
        f.returns_set,
        f.return_type,
        f.return_type_kind,
        f.return_relation,
        f.arguments.map((a) => `${a.name ?? '_'}:${a.type}`),
      ]),
    ).toEqual([
      ['add', 'IMMUTABLE', false, 'int4', 'b', null, ['_:int4', '_:int4']],
      ['add', 'IMMUTABLE', false, 'numeric', 'b', null, ['_:numeric', '_:numeric']],
      ['touch', 'VOLATILE', false, 'void', 'p', null, []],
    ]);
  });

  test('no names: no functions', async () => {
    expect(await loadFunctions(db.client, [])).toEqual([]);
  });
});
