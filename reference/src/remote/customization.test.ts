// A remote's schema under a customization: which names change and how, the roots and the
// namespace, and what cannot be customized.
import { buildSchema, printSchema, type GraphQLSchema } from 'graphql';
import type { RemoteSchemaCustomization } from '../../../spec';
import { customizedContribution, customizedRemote, namingOf, type CustomizedRemote } from './customization';

const SDL = `
  schema { query: RootQ, mutation: RootM, subscription: RootS }
  directive @tag(kind: Kind) on FIELD
  type RootQ { node(id: ID!): Node, pick(kind: Kind, where: Where): Thing, constructor: Int }
  type RootM { touch: Int }
  type RootS { ticks: Int }
  interface Node { id: ID! }
  type Thing implements Node { id: ID!, name: String, other: Other }
  type Other { name: String }
  union Any = Thing | Other
  enum Kind { BIG SMALL }
  input Where { name: String, kind: Kind }
  scalar Stamp
  type Holder { at: Stamp, any: Any }
  extend type RootQ { holder: Holder }
`;
const upstream = buildSchema(SDL);
const customized = (c: RemoteSchemaCustomization, schema: GraphQLSchema = upstream) => {
  const r = customizedRemote(schema, c);
  if ('problem' in r) throw new Error(r.problem);
  return r;
};
const typeNames = (r: CustomizedRemote) =>
  Object.keys(r.schema.getTypeMap())
    .filter((n) => !n.startsWith('__'))
    .sort();

test('without a customization the schema is the remote’s own', () => {
  const r = customizedRemote(upstream, undefined) as CustomizedRemote;
  expect(r.schema).toBe(upstream);
  expect([r.typeToRemote.size, r.typeFromRemote.size, r.fieldToRemote.size, r.namespace]).toEqual([0, 0, 0, undefined]);
});

test('types: prefix and suffix for all but the built-in scalars and the roots; a mapping wins, the roots included', () => {
  const r = customized({ type_names: { prefix: 'P_', suffix: '_S', mapping: { Kind: 'Size', RootM: 'Changes' } } });
  expect(typeNames(r)).toEqual(
    [
      'Boolean',
      'Changes',
      'ID',
      'Int',
      'P_Any_S',
      'P_Holder_S',
      'P_Node_S',
      'P_Other_S',
      'P_Stamp_S',
      'P_Thing_S',
      'P_Where_S',
      'RootQ',
      'RootS',
      'Size',
      'String',
    ].sort(),
  );
  expect([r.schema.getQueryType()!.name, r.schema.getMutationType()!.name, r.schema.getSubscriptionType()!.name]).toEqual(['RootQ', 'Changes', 'RootS']);
  // Types are renamed wherever they are named: fields, arguments, unions, interfaces, input fields, directives.
  expect(printSchema(r.schema)).toContain('pick(kind: Size, where: P_Where_S): P_Thing_S');
  expect(printSchema(r.schema)).toContain('union P_Any_S = P_Thing_S | P_Other_S');
  expect(printSchema(r.schema)).toContain('type P_Thing_S implements P_Node_S');
  expect(printSchema(r.schema)).toContain('directive @tag(kind: Size) on FIELD');
  expect(r.typeToRemote.get('P_Thing_S')).toBe('Thing');
  // The roots that keep their names are not in the maps.
  expect([r.typeFromRemote.has('RootQ'), r.typeFromRemote.has('RootS'), r.typeFromRemote.get('RootM')]).toEqual([false, false, 'Changes']);
  expect(r.typeFromRemote.get('Kind')).toBe('Size');
});

test('a namespace renames the roots <namespace><root> (unless mapped) and holds the root fields, query and mutation', () => {
  const r = customized({ root_fields_namespace: 'ns', type_names: { mapping: { RootM: 'Changes' } } });
  expect([r.schema.getQueryType()!.name, r.schema.getMutationType()!.name, r.schema.getSubscriptionType()!.name, r.namespace]).toEqual([
    'nsRootQ',
    'Changes',
    'nsRootS',
    'ns',
  ]);
  const c = customizedContribution('remote', r);
  expect([...c.query.keys(), ...c.mutation.keys()]).toEqual(['ns', 'ns']);
  expect(String(c.query.get('ns')!.type)).toBe('nsRootQ!');
  expect(String(c.mutation.get('ns')!.type)).toBe('Changes!');
  expect([...c.types.keys()]).toEqual(expect.arrayContaining(['nsRootQ', 'Changes', 'Thing', 'Node']));
  expect(customizedContribution('remote', r)).toBe(c);
  // A remote without mutations has no namespace field in mutation_root.
  const queriesOnly = customized({ root_fields_namespace: 'q' }, buildSchema('type Query { a: Int }'));
  expect([...customizedContribution('q', queriesOnly).mutation.keys()]).toEqual([]);
  expect([...customizedContribution('q', queriesOnly).types.keys()]).toEqual(['qQuery']);
  // Without a namespace the root fields are the contribution's own.
  expect([...customizedContribution('plain', customized({ type_names: { prefix: 'X' } })).query.keys()]).toEqual(['node', 'pick', 'constructor', 'holder']);
});

test("fields: of objects and interfaces by their remote name, a mapping before prefix and suffix; other types' fields stay", () => {
  const r = customized({
    type_names: { prefix: 'P_' },
    field_names: [
      { parent_type: 'Thing', prefix: 'f_', mapping: { id: 'id' } },
      { parent_type: 'Node', mapping: { id: 'id' } },
      { parent_type: 'RootQ', suffix: '_q', mapping: { constructor: 'ctor' } },
      { parent_type: 'Where', prefix: 'no_' },
      { parent_type: 'Kind', prefix: 'no_' },
      { parent_type: 'Missing', prefix: 'no_' },
    ],
  });
  const printed = printSchema(r.schema);
  expect(printed).toContain('type P_Thing_S'.replace('_S', '') + ' implements P_Node {\n  id: ID!\n  f_name: String\n  f_other: P_Other\n}');
  expect(printed).toContain('type P_Other {\n  name: String\n}');
  expect(printed).toContain('input P_Where {\n  name: String\n  kind: P_Kind\n}');
  expect(printed).toContain('node_q(id: ID!): P_Node');
  expect(printed).toContain('ctor: Int');
  expect([...r.fieldToRemote.get('P_Thing')!]).toEqual([
    ['id', 'id'],
    ['f_name', 'name'],
    ['f_other', 'other'],
  ]);
  expect(r.fieldToRemote.get('RootQ')!.get('ctor')).toBe('constructor');
  expect([...r.fieldToRemote.keys()].sort()).toEqual(['P_Node', 'P_Thing', 'RootQ']);
});

test("two types or two fields of a type under one name are refused first, in the engine's words", () => {
  const problem = (c: RemoteSchemaCustomization) => (customizedRemote(upstream, c) as { problem: string }).problem;
  expect(problem({ type_names: { mapping: { Thing: 'Other' } } })).toBe(
    'Type name mappings are not distinct; the following types appear more than once: "Other"',
  );
  // A built-in scalar takes its mapping too; the names are listed sorted.
  expect(problem({ type_names: { mapping: { String: 'Other', Where: 'Kind', Thing: 'Other' } } })).toBe(
    'Type name mappings are not distinct; the following types appear more than once: "Kind", "Other"',
  );
  expect(problem({ field_names: [{ parent_type: 'Thing', mapping: { name: 'id' } }] })).toBe(
    'Field name mappings for object type "Thing" are not distinct; the following fields appear more than once: "id"',
  );
  // An interface no object implements (one that does is checked for consistency first).
  const named = buildSchema('type Query { n: Node } interface Node { id: ID!, name: String }');
  expect(customizedRemote(named, { field_names: [{ parent_type: 'Node', prefix: 'x_', mapping: { id: 'x_name' } }] })).toEqual({
    problem: 'Field name mappings for interface type "Node" are not distinct; the following fields appear more than once: "x_name"',
  });
});

test("an interface's field named otherwise in an object implementing it is refused first, in the engine's words", () => {
  const problem = (c: RemoteSchemaCustomization) => (customizedRemote(upstream, c) as { problem: string }).problem;
  expect(problem({ field_names: [{ parent_type: 'Thing', suffix: '_x' }] })).toBe(
    'Remote schema customization inconsistency: field name mapping for field "id" of interface "Node" is inconsistent with mapping for type "Thing". Interface field name maps to "id". Type field name maps to "id_x".',
  );
  // Renamed alike on both sides, they are consistent.
  expect(
    customized({
      field_names: [
        { parent_type: 'Thing', mapping: { id: 'key' } },
        { parent_type: 'Node', mapping: { id: 'key' } },
      ],
    }).schema.getType('Thing'),
  ).toBeDefined();
});

test('what else does not give a valid schema is refused with the reason graphql-js gives', () => {
  // A remote without a query root is refused, whatever the customization.
  expect(customizedRemote(buildSchema('schema { mutation: M } type M { a: Int }'), { type_names: { prefix: 'P' } })).toEqual({
    problem: 'its customization does not give a valid schema: Query root type must be provided.',
  });
});

test('roots named Query and Mutation (printed without a schema definition) stay the query and the mutation root under a namespace', () => {
  const r = customized({ root_fields_namespace: 'ns' }, buildSchema('type Query { a: Int } type Mutation { b: Int } type Subscription { c: Int }'));
  expect([r.schema.getQueryType()!.name, r.schema.getMutationType()!.name, r.schema.getSubscriptionType()!.name]).toEqual([
    'nsQuery',
    'nsMutation',
    'nsSubscription',
  ]);
});

test("an interface's fields are renamed by its own entry, not by the type printed before it", () => {
  const r = customized({
    field_names: [
      { parent_type: 'Node', prefix: 'n_' },
      { parent_type: 'Thing', prefix: 'n_', mapping: { name: 'name', other: 'other' } },
    ],
  });
  expect(printSchema(r.schema)).toContain('interface Node {\n  n_id: ID!\n}');
  expect(printSchema(r.schema)).toContain('type Thing implements Node {\n  n_id: ID!\n  name: String\n  other: Other\n}');
});

test('the naming a path in the remote’s names is followed by: the namespace if any, the query root’s engine name, the renamed fields', () => {
  const r = customized({ root_fields_namespace: 'ns', field_names: [{ parent_type: 'RootQ', mapping: { pick: 'choose' } }] });
  expect(namingOf(r)).toEqual({ namespace: 'ns', queryRoot: 'nsRootQ', fieldToRemote: r.fieldToRemote });
  expect([...namingOf(r).fieldToRemote.get('nsRootQ')!].find(([, to]) => to === 'pick')).toEqual(['choose', 'pick']);
  expect(namingOf(customized({ type_names: { mapping: { RootQ: 'Top' } } }))).toStrictEqual({ queryRoot: 'Top', fieldToRemote: new Map() });
});
