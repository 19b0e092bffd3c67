// How a document's schema cache is made valid for every role (decision dec.schema.always-valid),
// with schemas standing in for graphql-js's: each one knows the document and the role it was built
// for, and a rule of the test says what is wrong with it. Which schema is asked, which object is
// blamed (the newest first), when the search gives up and when the types of a version before are
// trusted are this module's decisions; building and validating real schemas is schemaCache.ts's and
// schemaValidation.ts's (their own tests, and schema-validity.test.ts on a server).
import type { MetadataDocument, TableEntry } from '../../../spec';
import { introspectionOf, relationKey } from '../db/introspection';
import { dbColumn, dbTable } from '../../test-support/introspectionRows';
import { engineError } from '../errors';
import type { InconsistentObject } from '../metadata/inconsistency';
import { loadConfig } from '../config';
import { buildSchemaCache, roleSchema, type SchemaCache } from './schemaCache';
import { schemaErrors } from '../schema/schemaValidation';
import { adminSchemaOf, enumProblems, firstSchemaError, validSchemaCache } from './schemaValidity';

jest.mock('./schemaCache', () => ({ buildSchemaCache: jest.fn(), roleSchema: jest.fn() }));
jest.mock('../schema/schemaValidation', () => ({ schemaErrors: jest.fn() }));

/** A stand-in schema: the tables and objects of the document it was built from, and for whom. */
interface Stand {
  names: string[];
  who: string;
}
/** What is wrong with a schema (its errors), or what building it throws. */
type Rule = (names: string[], who: string) => string[] | { throws: unknown };

/** Every object of a document by name: tables, `table.relationship`, `table.field()`, `function()`. */
function namesOf(document: MetadataDocument): string[] {
  return [
    ...document.tables.flatMap((t) => [
      t.table.name,
      ...[...(t.object_relationships ?? []), ...(t.array_relationships ?? [])].map((r) => `${t.table.name}.${r.name}`),
      ...(t.computed_fields ?? []).map((f) => `${t.table.name}.${f.name}()`),
    ]),
    ...(document.functions ?? []).map((f) => `${f.function.name}()`),
  ];
}

let rule: Rule;
let knownRoles: string[];
let builds: { names: string[]; options: Record<string, unknown>; forgot: number }[];

function stand(names: string[], who: string): Stand {
  const verdict = rule(names, who);
  if (!Array.isArray(verdict)) throw verdict.throws;
  return { names, who };
}

beforeEach(() => {
  rule = () => [];
  knownRoles = [];
  builds = [];
  jest.mocked(schemaErrors).mockImplementation((schema) => rule((schema as unknown as Stand).names, (schema as unknown as Stand).who) as string[]);
  jest.mocked(roleSchema).mockImplementation((cache, role, backendOnly) => {
    const names = (cache as unknown as { names: string[] }).names;
    const who = `${knownRoles.includes(role) ? role : 'any other role'}${backendOnly ? ' (backend only)' : ''}`;
    return { built: { schema: stand(names, who) } } as unknown as ReturnType<typeof roleSchema>;
  });
  jest.mocked(buildSchemaCache).mockImplementation((document, _db, _enums, _limits, options = {}) => {
    const build = { names: namesOf(document), options: options as Record<string, unknown>, forgot: 0 };
    builds.push(build);
    return {
      names: build.names,
      knownRoles: new Set(knownRoles),
      admin: {
        get schema() {
          return stand(build.names, 'admin');
        },
      },
      share: { forgetPrevious: () => void build.forgot++ },
      sourceConflicts: [],
    } as unknown as SchemaCache;
  });
});

const table = (name: string, extra: Partial<TableEntry> = {}): TableEntry => ({ table: { schema: 'public', name }, ...extra });
const limits = loadConfig({}).limits;
const db = introspectionOf([]);
const cacheOf = (names: string[]) => buildSchemaCache({ version: 2, tables: names.map((n) => table(n)) }, db, new Map(), limits);
const valid = (document: MetadataDocument, options: Parameters<typeof validSchemaCache>[4] = {}) => validSchemaCache(document, db, new Map(), limits, options);
/** The name of what an inconsistent object stands for: a table, relationship or field by name, a function by its function's. */
const nameOf = (problem: InconsistentObject) => {
  const definition = (problem as { definition?: { name?: string; function?: { name: string } } }).definition;
  return definition?.name ?? definition?.function?.name;
};
const reason = (message: string) => `the GraphQL schema would not be valid: ${message}`;

describe('firstSchemaError: every schema of the cache asked, admin first', () => {
  test('none wrong: undefined', () => {
    knownRoles = ['user'];
    expect(firstSchemaError(cacheOf(['a']))).toBeUndefined();
  });

  test.each([
    ['admin', 'admin'],
    ['a role', 'user'],
    ["a role's backend-only schema", 'user (backend only)'],
    ['the schema of any other role', 'any other role'],
    ['the backend-only schema of any other role', 'any other role (backend only)'],
  ])('%s wrong: its first error', (_, wrong) => {
    knownRoles = ['user', 'editor'];
    rule = (_names, who) => (who === wrong ? [`${who} is wrong`, 'and more'] : []);
    expect(firstSchemaError(cacheOf(['a']))).toBe(`${wrong} is wrong`);
  });

  test('several wrong: the first asked', () => {
    knownRoles = ['user'];
    rule = (_names, who) => (who === 'admin' || who === 'user' ? [`${who} is wrong`] : []);
    expect(firstSchemaError(cacheOf(['a']))).toBe('admin is wrong');
  });

  test("what graphql-js throws while building is the schema's error; a fault of the server is thrown on", () => {
    const thrown = (error: unknown) => {
      rule = (_names, who) => (who === 'user' ? { throws: error } : []);
      knownRoles = ['user'];
      return () => firstSchemaError(cacheOf(['a']));
    };
    expect(thrown(new Error('Schema must contain uniquely named types but contains multiple types named "a".'))()).toBe(
      'Schema must contain uniquely named types but contains multiple types named "a".',
    );
    expect(thrown(new TypeError("Cannot read properties of undefined (reading 'name')"))).toThrow(TypeError);
    expect(thrown(new RangeError('Maximum call stack size exceeded'))).toThrow(RangeError);
    expect(thrown(engineError('postgres-error.connection', '$'))).toThrow('connection error');
    expect(thrown('not an error')).toThrow('not an error');
  });
});

describe('adminSchemaOf: types of a version before trusted only for a valid schema', () => {
  const document: MetadataDocument = { version: 2, tables: [table('a')] };
  const previous = { marker: 'previous' } as unknown as NonNullable<Parameters<typeof adminSchemaOf>[4]>['previous'];

  test('without a version before: one build', () => {
    expect(adminSchemaOf(document, db, new Map(), limits, { defaultNaming: 'graphql-default' })).toEqual({ names: ['a'], who: 'admin' });
    expect(builds).toEqual([{ names: ['a'], options: { defaultNaming: 'graphql-default', previous: undefined }, forgot: 0 }]);
  });

  test('with one and a valid schema: that build, which then forgets the version before', () => {
    expect(adminSchemaOf(document, db, new Map(), limits, { previous })).toEqual({ names: ['a'], who: 'admin' });
    expect(builds).toEqual([{ names: ['a'], options: { previous }, forgot: 1 }]);
  });

  test.each([
    ['not valid', ['wrong']],
    ['not built', { throws: new Error('Schema must contain uniquely named types') }],
  ])('with one and a schema %s: built again from nothing, keeping the other options', (_, verdict) => {
    rule = () => (builds.length === 1 ? verdict : []);
    expect(adminSchemaOf(document, db, new Map(), limits, { previous, defaultNaming: 'graphql-default' })).toEqual({ names: ['a'], who: 'admin' });
    expect(builds).toEqual([
      { names: ['a'], options: { previous, defaultNaming: 'graphql-default' }, forgot: 1 },
      { names: ['a'], options: { previous: undefined, defaultNaming: 'graphql-default' }, forgot: 0 },
    ]);
  });

  test('a fault of the server while building is thrown on, the version before forgotten', () => {
    rule = () => ({ throws: new TypeError('a fault') });
    expect(() => adminSchemaOf(document, db, new Map(), limits, { previous })).toThrow('a fault');
    expect(builds).toEqual([{ names: ['a'], options: { previous }, forgot: 1 }]);
  });
});

describe('validSchemaCache', () => {
  test('valid at once: served whole, from one build, which forgets the version before', () => {
    const document: MetadataDocument = { version: 2, tables: [table('a')] };
    const result = valid(document, { previous: undefined });
    expect([result.problems, result.document, builds]).toEqual([[], document, [{ names: ['a'], options: { previous: undefined }, forgot: 1 }]]);
  });

  test('a version before is trusted while the schema is valid, and set aside when it is not', () => {
    const previous = { marker: 'previous' } as unknown as NonNullable<Parameters<typeof validSchemaCache>[4]>['previous'];
    valid({ version: 2, tables: [table('a')] }, { previous });
    expect(builds.map((b) => b.options.previous)).toStrictEqual([previous]);
    builds = [];
    // Wrong only with the types of the version before: nothing is left out.
    rule = (names) => (builds.at(-1)!.options.previous && names.length > 0 ? ['stale type'] : []);
    const result = valid({ version: 2, tables: [table('a')] }, { previous });
    expect([result.problems, builds.map((b) => b.options.previous)]).toStrictEqual([[], [previous, undefined]]);
    // Without one, a schema that is not valid is searched from its first build.
    builds = [];
    rule = (names) => (names.includes('a') ? ['a is wrong'] : []);
    expect(valid({ version: 2, tables: [table('a'), table('b')] }).problems).toEqual([
      { type: 'table', reason: reason('a is wrong'), definition: { schema: 'public', name: 'a' } },
    ]);
    expect(builds.map((b) => b.names)).toStrictEqual([['a', 'b'], ['a'], ['b']]);
  });

  test('the object whose removal changes the error is left out, the newest first, with the error as its reason', () => {
    const b = table('b', {
      object_relationships: [
        { name: 'r1', using: { foreign_key_constraint_on: 'x' } },
        { name: 'r2', using: { foreign_key_constraint_on: 'y' } },
      ],
      computed_fields: [{ name: 'f', definition: { function: { schema: 'public', name: 'f' } } }],
    });
    const document: MetadataDocument = { version: 2, tables: [table('a'), b], functions: [{ function: { schema: 'public', name: 'g' } }] };
    // Each of r1 and r2 alone makes the schema wrong, with an error that names both while both are there.
    rule = (names) => {
      const wrong = names.filter((n) => n === 'b.r1' || n === 'b.r2');
      return wrong.length ? [`${wrong.join(' and ')} clash`] : [];
    };
    const result = valid(document);
    expect(result.problems).toEqual([
      { type: 'object_relation', reason: reason('b.r1 and b.r2 clash'), definition: { table: b.table, name: 'r2', using: { foreign_key_constraint_on: 'y' } } },
      { type: 'object_relation', reason: reason('b.r1 clash'), definition: { table: b.table, name: 'r1', using: { foreign_key_constraint_on: 'x' } } },
    ]);
    expect(namesOf(result.document)).toEqual(['a', 'b', 'b.f()', 'g()']);
  });

  test.each([
    ['computed fields', 'b.f2()', 'b.f1()', { type: 'computed_field', name: 'f2' }],
    ['functions', 'g2()', 'g1()', { type: 'function', name: 'g2' }],
    ['array relationships', 'b.r2', 'b.r1', { type: 'array_relation', name: 'r2' }],
    ['tables', 'c', 'b', { type: 'table', name: 'c' }],
  ])('among %s the newest is blamed first', (_, newest, older, blamed) => {
    const b = table('b', {
      array_relationships: [
        { name: 'r1', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'x' }, column: 'id' } } },
        { name: 'r2', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'y' }, column: 'id' } } },
      ],
      computed_fields: ['f1', 'f2'].map((name) => ({ name, definition: { function: { schema: 'public', name } } })),
    });
    const document: MetadataDocument = {
      version: 2,
      tables: [table('a'), b, table('c')],
      functions: ['g1', 'g2'].map((name) => ({ function: { schema: 'public', name } })),
    };
    rule = (names) => (names.includes(newest) && names.includes(older) ? ['clash'] : []);
    const [problem, ...others] = valid(document).problems;
    expect(others).toEqual([]);
    expect({ type: problem!.type, name: nameOf(problem!), reason: problem!.reason }).toEqual({
      ...blamed,
      reason: reason('clash'),
    });
  });

  test('computed fields are tried before functions, functions before relationships, relationships before tables', () => {
    const b = table('b', {
      object_relationships: [{ name: 'r', using: { foreign_key_constraint_on: 'x' } }],
      computed_fields: [{ name: 'f', definition: { function: { schema: 'public', name: 'f' } } }],
    });
    const document: MetadataDocument = { version: 2, tables: [b, table('c')], functions: [{ function: { schema: 'public', name: 'g' } }] };
    const order: string[] = [];
    // Wrong whatever is left out: every candidate is tried, in turn, in the first round.
    rule = (names) => {
      const missing = ['b', 'c', 'b.r', 'b.f()', 'g()'].filter((n) => !names.includes(n));
      if (missing.includes('b')) order.push('b');
      else if (missing.length === 1) order.push(missing[0]!);
      return ['wrong'];
    };
    valid(document);
    expect(order.filter((n, i) => order.indexOf(n) === i)).toEqual(['b.f()', 'g()', 'b.r', 'c', 'b']);
  });

  test('at most 20 objects are left out one by one; then every table left is, with the error of the rest', () => {
    const bad = Array.from({ length: 22 }, (_, i) => `t${String(i + 1).padStart(2, '0')}`);
    rule = (names) => {
      const first = names.filter((n) => n.startsWith('t')).sort()[0];
      return first ? [`${first} is wrong`] : [];
    };
    const document: MetadataDocument = {
      version: 2,
      tables: [table('good'), ...bad.map((n) => table(n))],
      functions: [{ function: { schema: 'public', name: 'g' } }],
    };
    const result = valid(document);
    expect(result.problems.map((p) => [nameOf(p), p.reason])).toEqual([
      ...bad.slice(0, 20).map((n) => [n, reason(`${n} is wrong`)]),
      ['good', reason('t21 is wrong')],
      ['t21', reason('t21 is wrong')],
      ['t22', reason('t21 is wrong')],
    ]);
    expect(result.problems.every((p) => p.type === 'table')).toBe(true);
    expect(namesOf(result.document)).toEqual(['g()']);
    expect(builds.at(-1)!.names).toEqual(['g()']);
  });

  test('20 objects left out one by one, the last making every schema valid: the rest is served', () => {
    const bad = Array.from({ length: 20 }, (_, i) => `t${String(i + 1).padStart(2, '0')}`);
    rule = (names) => {
      const first = names.filter((n) => n.startsWith('t')).sort()[0];
      return first ? [`${first} is wrong`] : [];
    };
    const result = valid({ version: 2, tables: [table('good'), ...bad.map((n) => table(n))] });
    expect(result.problems.map(nameOf)).toEqual(bad);
    expect(namesOf(result.document)).toEqual(['good']);
  });

  test('an error no single object explains: every table is left out', () => {
    rule = (names) => (['a', 'b', 'c'].filter((n) => names.includes(n)).length >= 2 ? ['too many'] : []);
    const result = valid({ version: 2, tables: [table('a'), table('b'), table('c')] });
    expect(result.problems).toEqual(['a', 'b', 'c'].map((name) => ({ type: 'table', reason: reason('too many'), definition: { schema: 'public', name } })));
    expect(result.document.tables).toEqual([]);
  });
});

describe('enumProblems', () => {
  test('an enum table the database does not have is left to the check of missing tables', () => {
    expect(enumProblems({ version: 2, tables: [table('gone', { is_enum: true })] }, db, new Map())).toEqual([]);
  });

  test('an enum table with no rows read cannot be an enum', () => {
    const color = dbTable('color', 1, [dbColumn('value', 'text')], ['value']);
    const document: MetadataDocument = { version: 2, tables: [table('color', { is_enum: true })] };
    expect(enumProblems(document, introspectionOf([color], [color]), new Map())).toEqual([
      {
        type: 'table',
        reason: 'the table "color" cannot be used as an enum because the table must have at least one row',
        definition: { schema: 'public', name: 'color' },
      },
    ]);
    expect(enumProblems(document, introspectionOf([color], [color]), new Map([[relationKey(color), [{ value: 'red', comment: null }]]]))).toEqual([]);
  });
});
