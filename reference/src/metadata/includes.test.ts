// `!include` as the engine's CLI reads it: relative to the including file, at any depth; a file
// that is not there, one outside the directory and a cycle are refused, naming the file.
import { readWithIncludes } from './includes';

test('a string "!include path" and a tagged !include stand for the file, relative to the including one, at any depth', () => {
  const files = {
    'databases/databases.yaml': '- name: default\n  tables: "!include default/tables/tables.yaml"\n',
    'databases/default/tables/tables.yaml': '- "!include public_a.yaml"\n- !include nested/public_b.yaml\n',
    'databases/default/tables/public_a.yaml': 'table:\n  schema: public\n  name: a\n',
    'databases/default/tables/nested/public_b.yaml': "table: {schema: public, name: b}\nselect_permissions: '!include ../../perms/b.yaml'\n",
    'databases/default/perms/b.yaml': '- role: user\n  permission: {columns: "*", filter: {}}\n',
  };
  const resolved = readWithIncludes(files, 'databases/databases.yaml');
  expect(resolved.value).toEqual([
    {
      name: 'default',
      tables: [
        { table: { schema: 'public', name: 'a' } },
        { table: { schema: 'public', name: 'b' }, select_permissions: [{ role: 'user', permission: { columns: '*', filter: {} } }] },
      ],
    },
  ]);
  expect([...resolved.reached].sort()).toEqual(Object.keys(files).sort());
  // Each list and object is known by the file it was read from.
  const [source] = resolved.value as { tables: object[] }[];
  expect(resolved.fileOf(resolved.value)).toBe('databases/databases.yaml');
  expect(resolved.fileOf(source!.tables)).toBe('databases/default/tables/tables.yaml');
  expect(resolved.fileOf(source!.tables[1])).toBe('databases/default/tables/nested/public_b.yaml');
  expect(resolved.fileOf('a string')).toBeUndefined();
  expect(resolved.fileOf(null)).toBeUndefined();
});

test('a file that is not YAML stands for its text; the same file may be included twice', () => {
  const files = {
    'query_collections.yaml':
      '- name: c\n  definition:\n    queries:\n      - {name: q, query: "!include queries/q.graphql"}\n      - {name: r, query: "!include queries/q.graphql"}\n',
    'queries/q.graphql': 'query q { a }\n',
  };
  expect(readWithIncludes(files, 'query_collections.yaml').value).toEqual([
    {
      name: 'c',
      definition: {
        queries: [
          { name: 'q', query: 'query q { a }\n' },
          { name: 'r', query: 'query q { a }\n' },
        ],
      },
    },
  ]);
});

test('the path of an !include may stand between spaces and double quotes', () => {
  const files = { 'a.yaml': '- "  !include   \\"b c.yaml\\"  "\n- !include  b c.yaml\n', 'b c.yaml': 'x: 1\n' };
  expect(readWithIncludes(files, 'a.yaml').value).toEqual([{ x: 1 }, { x: 1 }]);
});

test('what cannot be included is refused, naming the file that says it', () => {
  const refused = (files: Record<string, string>) => () => readWithIncludes(files, 'a.yaml');
  expect(refused({ 'a.yaml': '- "!include b.yaml"\n' })).toThrow('a.yaml: !include b.yaml: there is no file b.yaml');
  expect(refused({ 'a.yaml': 'x: "!include sub/b.yaml"\n', 'sub/b.yaml': 'y: !include ../../outside.yaml\n' })).toThrow(
    'sub/b.yaml: !include ../../outside.yaml leads outside the directory',
  );
  expect(refused({ 'a.yaml': 'x: "!include .."\n' })).toThrow('a.yaml: !include .. leads outside the directory');
  expect(refused({ 'a.yaml': '- "!include b.yaml"\n', 'b.yaml': '- "!include sub/c.yaml"\n', 'sub/c.yaml': 'x: "!include ../a.yaml"\n' })).toThrow(
    'sub/c.yaml: !include ../a.yaml includes itself: a.yaml → b.yaml → sub/c.yaml → a.yaml',
  );
  expect(refused({ 'a.yaml': '- "!include b.yaml"\n', 'b.yaml': 'x: [1\n' })).toThrow(/^b\.yaml is not valid YAML \(line 2, column 1\): /);
  expect(refused({ 'a.yaml': 'x: !secret b.yaml\n' })).toThrow(/^a\.yaml is not valid YAML \(line 1, column 4\): .*!secret/);
  expect(refused({})).toThrow('a.yaml is missing');
});
