// A table's class, part by part, on models built by hand (decision 022): every part of a table
// that the schema builder reads gives the table (and every table reaching it) another class when it
// changes; what the builder does not read changes none.
import type { GraphQLSchema } from 'graphql';
import type { DbFunction } from '../db/introspection';
import type { ColumnModel, ComputedFieldModel, Models, RelationshipModel, TableModel } from './model';
import { TypeShare } from './typeShare';
import { dbColumn, dbTable } from '../../test-support/introspectionRows';

const A = 'public\u0000a';
const B = 'public\u0000b';
const C = 'public\u0000c';
const columnOf = (name: string, type = 'int4'): ColumnModel => ({ column: dbColumn(name, type), field: name, scalar: 'Int' });
const relationship = (name: string, targetKey: string): RelationshipModel => ({
  name,
  kind: 'object',
  remote: { schema: 'public', name: 'b' },
  mapping: [['b_id', 'id']],
  targetKey,
  nullable: false,
});
const fn = { schema: 'public', name: 'f', oid: '1' } as DbFunction;
const computed = (targetKey?: string): ComputedFieldModel => ({
  db: fn,
  field: 'computed',
  kind: targetKey ? 'table' : 'scalar',
  ...(targetKey ? { targetKey } : {}),
  returns: columnOf('computed'),
  comment: 'what it computes',
  arguments: [{ name: 'x', field: 'x', column: dbColumn('x', 'int4'), hasDefault: false, session: false }],
});

/** A table of these columns, with every part of it set to something plain. */
function tableModel(key: string, name: string, parts: Partial<TableModel> = {}): TableModel {
  const columns = [columnOf('id'), columnOf('b_id')];
  return {
    key,
    entry: { table: { schema: 'public', name } },
    db: dbTable(
      name,
      1,
      columns.map((c) => c.column),
      ['id'],
    ),
    name,
    columns,
    byField: new Map(),
    byColumn: new Map(),
    primaryKey: ['id'],
    constraints: [{ name: `${name}_pkey`, columns: ['id'] }],
    relationships: [],
    insertRelationships: [],
    computedFields: [],
    remoteRelationships: [],
    sourceRelationships: [],
    insertable: true,
    updatable: true,
    deletable: true,
    rootFields: { select: name } as TableModel['rootFields'],
    access: { select: true, aggregate: true, insert: true, update: true, delete: true, insertColumns: columns, updateColumns: columns },
    ...parts,
  };
}

const typeName = (c: ColumnModel) => c.scalar;
const classOf = (models: Models, key: string, names = typeName, remoteTypes = '') => new TypeShare().classify(models, names, remoteTypes).get(key)!;
const modelsOf = (...tables: TableModel[]): Models => new Map(tables.map((t) => [t.key, t]));

// a reaches b by every kind of edge; c is on its own.
const a = tableModel(A, 'a', {
  relationships: [relationship('b', B)],
  insertRelationships: [relationship('b', B)],
  sourceRelationships: [{ name: 'remote_b', kind: 'object', targetKey: B, mapping: [['b_id', 'id']] }],
  computedFields: [computed(), computed(B)],
  permissions: { select: { filter: {} } },
});
const b = tableModel(B, 'b');
const c = tableModel(C, 'c');
const base = modelsOf(a, b, c);

describe("each part of a table's view gives it another class", () => {
  const rel = a.relationships[0]!;
  const source = a.sourceRelationships[0]!;
  const field = a.computedFields[1]!;
  const argument = field.arguments[0]!;
  const withField = (change: Partial<ComputedFieldModel>) => ({ computedFields: [a.computedFields[0]!, { ...field, ...change }] });
  const withArgument = (change: Partial<ComputedFieldModel['arguments'][number]>) => withField({ arguments: [{ ...argument, ...change }] });
  const variants: [string, Partial<TableModel>][] = [
    ['root fields (the entry unchanged)', { rootFields: { select: 'all_a' } as TableModel['rootFields'] }],
    ['a namespace', { namespace: 'ns' }],
    ['type names', { typeNames: { prefix: 'p_' } }],
    ['another naming convention', { naming: 'graphql-default' }],
    ['a column named otherwise', { columns: [columnOf('id'), { ...columnOf('b_id'), field: 'bId' }] }],
    ['the primary key', { primaryKey: ['b_id'] }],
    ['no primary key', { primaryKey: undefined }],
    ['a constraint named otherwise', { constraints: [{ name: 'a_key', columns: ['id'] }] }],
    ['a relationship named otherwise', { relationships: [{ ...rel, name: 'other' }] }],
    ['a relationship of another kind', { relationships: [{ ...rel, kind: 'array' }] }],
    ['a relationship to another table', { relationships: [{ ...rel, targetKey: C }] }],
    ['a relationship that may be null', { relationships: [{ ...rel, nullable: true }] }],
    ['an insert relationship named otherwise', { insertRelationships: [{ ...rel, name: 'other' }] }],
    ['an insert relationship of another kind', { insertRelationships: [{ ...rel, kind: 'array' }] }],
    ['an insert relationship to another table', { insertRelationships: [{ ...rel, targetKey: C }] }],
    ['a source relationship named otherwise', { sourceRelationships: [{ ...source, name: 'other' }] }],
    ['a source relationship of another kind', { sourceRelationships: [{ ...source, kind: 'array' }] }],
    ['a source relationship to another table', { sourceRelationships: [{ ...source, targetKey: C }] }],
    ['a source relationship on other columns', { sourceRelationships: [{ ...source, mapping: [['id', 'id']] }] }],
    ['a computed field named otherwise', withField({ field: 'other' })],
    ['a computed field of another kind', withField({ kind: 'scalar' })],
    ['a computed field of another table', withField({ targetKey: C })],
    // Tables of no model: only the field's own part tells them apart.
    ['a computed field of another table of no model', withField({ targetKey: 'public\u0000gone' })],
    ['a computed field of another scalar', withField({ returns: { ...field.returns, scalar: 'String' } })],
    ['a computed field of another type', withField({ returns: { ...field.returns, column: dbColumn('computed', 'text') } })],
    ['a computed field commented otherwise', withField({ comment: 'something else' })],
    ['a computed field of another schema', withField({ db: { ...fn, schema: 'other' } })],
    ['a computed field of another function', withField({ db: { ...fn, name: 'g' } })],
    ['an argument named otherwise', withArgument({ field: 'y' })],
    ['an argument of another type', withArgument({ column: dbColumn('x', 'text') })],
    ['an argument with a default', withArgument({ hasDefault: true })],
    ['the session argument', withArgument({ session: true })],
    ['the row argument', withArgument({ row: true })],
    ['no select', { access: { ...a.access, select: false } }],
    ['no aggregate', { access: { ...a.access, aggregate: false } }],
    ['no insert', { access: { ...a.access, insert: false } }],
    ['no update', { access: { ...a.access, update: false } }],
    ['no delete', { access: { ...a.access, delete: false } }],
    ['no permissions (admin)', { permissions: undefined }],
    ['fewer insert columns', { access: { ...a.access, insertColumns: [columnOf('id')] } }],
    ['fewer update columns', { access: { ...a.access, updateColumns: [columnOf('id')] } }],
    // A name changes with the entry (commonView is kept by it): here the entry is the same but another object.
    ['another name', { name: 'other', entry: { ...a.entry } }],
    ['commented in the database', { db: { ...a.db, comment: 'changed' } }],
    ['configured', { entry: { ...a.entry, configuration: { custom_name: 'other' } } }],
    ['an enum table', { entry: { ...a.entry, is_enum: true } }],
  ];

  test.each(variants)('%s', (_, change) => {
    // A copy of the entry: its view is worked out here, not taken from the memo of a test before.
    const before = classOf(modelsOf({ ...a, entry: { ...a.entry } }, b, c), A);
    expect(before).toBe(classOf(base, A));
    expect(classOf(modelsOf({ ...a, ...change }, b, c), A)).not.toBe(before);
    // The same parts again: the same class.
    expect(classOf(modelsOf({ ...a, ...change }, b, c), A)).toBe(classOf(modelsOf({ ...a, ...change }, b, c), A));
    expect(classOf(modelsOf({ ...a, ...change }, b, c), C)).toBe(classOf(base, C));
  });

  test("an enum table's values, with the same entry and description of the database", () => {
    const values = (...names: string[]) => names.map((value) => ({ value, comment: null }));
    const red = classOf(modelsOf({ ...a, enumValues: values('red') }, b, c), A);
    expect(classOf(modelsOf({ ...a, enumValues: values('green') }, b, c), A)).not.toBe(red);
    expect(classOf(modelsOf({ ...a, enumValues: values('red') }, b, c), A)).toBe(red);
  });

  test("a column's type in the role's schema", () => {
    const named = (c: ColumnModel) => (c.field === 'b_id' ? 'b_enum' : c.scalar);
    expect(classOf(base, A, named)).not.toBe(classOf(base, A));
  });
});

describe('a table reaches the classes of the tables its edges lead to', () => {
  const changedB = modelsOf(a, { ...b, namespace: 'ns' }, c);
  const only = (parts: Partial<TableModel>) => ({
    ...a,
    relationships: [],
    insertRelationships: [],
    sourceRelationships: [],
    computedFields: [],
    ...parts,
  });

  test.each([
    ['a relationship', { relationships: a.relationships }],
    ['an insert relationship', { insertRelationships: a.insertRelationships }],
    ['a source relationship', { sourceRelationships: a.sourceRelationships }],
    ['a computed field returning its rows', { computedFields: [computed(B)] }],
  ] as [string, Partial<TableModel>][])('%s: b changed, a changes too', (_, parts) => {
    const before = classOf(modelsOf(only(parts), b, c), A);
    expect(classOf(modelsOf(only(parts), { ...b, namespace: 'ns' }, c), A)).not.toBe(before);
  });

  test('a computed field returning a scalar reaches nothing', () => {
    const scalarOnly = only({ computedFields: [computed()] });
    expect(classOf(modelsOf(scalarOnly, { ...b, namespace: 'ns' }, c), A)).toBe(classOf(modelsOf(scalarOnly, b, c), A));
  });

  test('a table b reaches does not change with b, and c with neither', () => {
    expect(classOf(changedB, A)).not.toBe(classOf(base, A));
    expect(classOf(changedB, C)).toBe(classOf(base, C));
  });

  test('an edge to a table of no model (of another role, not tracked) reaches nothing', () => {
    const toGone = only({ relationships: [relationship('gone', 'public\u0000gone')] });
    expect(classOf(modelsOf(toGone, c), A)).toEqual(expect.any(String));
  });
});

describe("a remote relationship's field: the table's class follows the remote schemas' versions", () => {
  const remote = { name: 'r', remoteSchema: 's', lhs: ['id'], remoteField: { f: { arguments: {} } } } as unknown as TableModel['remoteRelationships'][number];
  const withRemote = modelsOf({ ...a, remoteRelationships: [remote] }, b, c);

  test('with one, other versions of the remote schemas give another class; the relationship itself too', () => {
    expect(classOf(withRemote, A, typeName, 'v2')).not.toBe(classOf(withRemote, A, typeName, 'v1'));
    expect(classOf(withRemote, A, typeName, 'v1')).toBe(classOf(withRemote, A, typeName, 'v1'));
    expect(classOf(withRemote, A)).not.toBe(classOf(base, A));
    const renamed = modelsOf({ ...a, remoteRelationships: [{ ...remote, name: 'other' }] }, b, c);
    expect(classOf(renamed, A)).not.toBe(classOf(withRemote, A));
  });

  test('without one, the versions of the remote schemas change nothing', () => {
    expect(classOf(base, A, typeName, 'v2')).toBe(classOf(base, A, typeName, 'v1'));
  });
});

describe('parts alike in effect give the same class', () => {
  test('an entry that says a table is no enum table, and one that says nothing', () => {
    expect(classOf(modelsOf({ ...a, entry: { ...a.entry, is_enum: false } }, b, c), A)).toBe(classOf(base, A));
  });

  test('no versions of the remote schemas named, and none', () => {
    const remote = { name: 'r', remoteSchema: 's', lhs: ['id'], remoteField: {} } as unknown as TableModel['remoteRelationships'][number];
    const withRemote = modelsOf({ ...a, remoteRelationships: [remote] }, b, c);
    expect(new TypeShare().classify(withRemote, typeName).get(A)).toBe(classOf(withRemote, A, typeName, ''));
  });

  test('a cycle reaching two classes has one class whichever of its tables the metadata lists first', () => {
    const X = 'public\u0000x';
    const Y = 'public\u0000y';
    // x <-> y; x reaches b, y reaches c: walked from x or from y, the cycle's tables come off the stack in another order.
    const x = tableModel(X, 'x', { relationships: [relationship('y', Y), relationship('b', B)] });
    const y = tableModel(Y, 'y', { relationships: [relationship('x', X), relationship('c', C)] });
    const fromX = classOf(modelsOf(x, y, b, c), X);
    expect(classOf(modelsOf(y, x, b, c), X)).toBe(fromX);
    expect(classOf(modelsOf(y, x, b, c), Y)).toBe(fromX);
  });
});

describe('the schemas a version is validated against (decision 029)', () => {
  const schemaNamed = (name: string) => ({ name }) as unknown as GraphQLSchema;
  const first = () => {
    const share = new TypeShare();
    share.classify(modelsOf(a, b, c), typeName);
    share.schema('before', false, () => schemaNamed('before'));
    return share;
  };

  test('as many tables taken as made: none, the schema is validated whole', () => {
    const share = new TypeShare(first());
    share.classify(modelsOf(b, { ...c, namespace: 'ns' }), typeName);
    expect(share.schemasBefore()).toBeUndefined();
  });

  test("more taken than made: the version before's and its own; its own only once the version before is forgotten", () => {
    const share = new TypeShare(first());
    share.classify(modelsOf(a, b, { ...c, namespace: 'ns' }), typeName);
    share.schema('own', false, () => schemaNamed('own'));
    expect(share.schemasBefore()!()).toEqual([schemaNamed('before'), schemaNamed('own')]);
    share.forgetPrevious();
    expect(share.schemasBefore()!()).toEqual([schemaNamed('own')]);
  });
});
