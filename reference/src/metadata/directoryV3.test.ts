// The version 3 layout written and read without a server: file names as the CLI gives them (and
// never outside their folder, never twice), the server's own database in the directory's words.
import type { MetadataDocument } from '../../../spec';
import { exportLayout, filesOfExport, readDirectory, staleFiles } from './directory';
import { v3Files } from './directoryV3';

const table = (schema: string, name: string) => ({ table: { schema, name } });
const source = (name: string, tables: unknown[], extra: Record<string, unknown> = {}) => ({ name, kind: 'postgres', configuration: {}, ...extra, tables });

test('a table or function file is <schema>_<name>.yaml; a name that would leave its folder, or take another file, is made safe and distinct', () => {
  const files = v3Files(
    {
      version: 3,
      sources: [
        source(
          'default',
          [table('a_b', 'c'), table('a', 'b_c'), table('public', '../x'), table('Public', 'X'), table('public', 'x'), { table: 'bare' }, table('a_b', 'c')],
          { functions: [{ function: { schema: 'public', name: 'f' } }] },
        ),
        source('../etc', [], { functions: [] }),
        source('databases.yaml', []),
        source('..', []),
        { name: 'untracked', kind: 'postgres', configuration: {} },
      ],
    },
    new Set(),
  );
  expect(Object.keys(files).filter((f) => f.startsWith('databases/'))).toEqual([
    'databases/.._etc/tables/tables.yaml',
    'databases/_../tables/tables.yaml',
    'databases/databases.yaml',
    'databases/databases.yaml_2/tables/tables.yaml',
    'databases/default/functions/functions.yaml',
    'databases/default/functions/public_f.yaml',
    'databases/default/tables/Public_X.yaml',
    'databases/default/tables/a_b_c.yaml',
    'databases/default/tables/a_b_c_2.yaml',
    'databases/default/tables/a_b_c_3.yaml',
    'databases/default/tables/public_.._x.yaml',
    'databases/default/tables/public_bare.yaml',
    'databases/default/tables/public_x_2.yaml',
    'databases/default/tables/tables.yaml',
  ]);
  expect(files['databases/default/tables/tables.yaml']).toBe(
    '- "!include a_b_c.yaml"\n- "!include a_b_c_2.yaml"\n- "!include public_.._x.yaml"\n- "!include Public_X.yaml"\n- "!include public_x_2.yaml"\n' +
      '- "!include public_bare.yaml"\n- "!include a_b_c_3.yaml"\n',
  );
  // An empty list of functions stays in databases.yaml, as the CLI leaves it.
  expect(files['databases/databases.yaml']).toBe(
    [
      '- name: default',
      '  kind: postgres',
      '  configuration: {}',
      '  tables: "!include default/tables/tables.yaml"',
      '  functions: "!include default/functions/functions.yaml"',
      '- name: ../etc',
      '  kind: postgres',
      '  configuration: {}',
      '  tables: "!include .._etc/tables/tables.yaml"',
      '  functions: []',
      '- name: databases.yaml',
      '  kind: postgres',
      '  configuration: {}',
      '  tables: "!include databases.yaml_2/tables/tables.yaml"',
      '- name: ..',
      '  kind: postgres',
      '  configuration: {}',
      '  tables: "!include _../tables/tables.yaml"',
      '- name: untracked',
      '  kind: postgres',
      '  configuration: {}',
      '',
    ].join('\n'),
  );
  // What is written reads back as what was written.
  const read = readDirectory(files);
  expect(v3Files(read.document as never, new Set())).toEqual(files);
});

const exported: MetadataDocument = { version: 2, tables: [table('public', 'users')], functions: [{ function: { schema: 'public', name: 'f' } }] };

test("the server's own database keeps the directory's words for it; without them, plain ones", () => {
  const words =
    '- name: default\n  kind: postgres\n  configuration:\n    connection_info:\n      database_url: postgres://db/app\n  customization:\n    naming_convention: hasura-default\n  tables: []\n';
  expect(filesOfExport(exported, 3, { 'databases/databases.yaml': words })['databases/databases.yaml']).toBe(
    [
      '- name: default',
      '  kind: postgres',
      '  configuration:',
      '    connection_info:',
      '      database_url: postgres://db/app',
      '  customization:',
      '    naming_convention: hasura-default',
      '  tables: "!include default/tables/tables.yaml"',
      '  functions: "!include default/functions/functions.yaml"',
      '',
    ].join('\n'),
  );
  const plain = filesOfExport(exported, 3, {})['databases/databases.yaml'];
  for (const unusable of ['- [not: valid\n', 'name: default\n', '- name: other\n  kind: postgres\n- default\n']) {
    expect(filesOfExport(exported, 3, { 'databases/databases.yaml': unusable })['databases/databases.yaml']).toBe(plain);
  }
  // The entry named default, wherever it stands; an export without functions says none.
  const second = '- name: other\n  configuration: {}\n- name: default\n  kind: postgres\n  configuration: {}\n';
  expect(filesOfExport({ version: 2, tables: [] }, 3, { 'databases/databases.yaml': second })['databases/databases.yaml']).toBe(
    '- name: default\n  kind: postgres\n  configuration: {}\n  tables: "!include default/tables/tables.yaml"\n',
  );
  expect(plain).toMatch(
    /^- name: default\n {2}kind: postgres\n {2}configuration:\n {4}connection_info:\n {6}database_url:\n {8}from_env: ENGINE_GRAPHQL_DATABASE_URL\n/,
  );
});

test('export’s layout and what it removes of what the directory held', () => {
  expect(exportLayout(2, { ...exported, sources: [] }, {})).toBe(2);
  expect(exportLayout(undefined, { ...exported, sources: [{ name: 'a', kind: 'postgres', configuration: {} as never, tables: [] }] }, {})).toBe(3);
  expect(exportLayout(undefined, exported, {})).toBe(2);
  expect(exportLayout(undefined, exported, { 'version.yaml': 'version: 3\n' })).toBe(3);
  expect(() => exportLayout(undefined, exported, { 'version.yaml': 'version: 9\n' })).toThrow(
    'version.yaml: version 9 is no layout this command reads (2 or 3); say which layout to write with --layout 2 or --layout 3',
  );
  const v3 = filesOfExport(exported, 3, {});
  // A directory that cannot be read: only what is a layout's by name goes.
  expect(staleFiles(v3, { 'tables.yaml': '[]', 'notes.txt': '', 'databases/old/tables/x.yaml': '', 'databases/default/tables/public_users.yaml': '' })).toEqual(
    ['databases/old/tables/x.yaml', 'tables.yaml'],
  );
  // One that can: all of it is the layout's.
  const project = {
    ...v3,
    'queries/q.graphql': 'query q { a }',
    'query_collections.yaml': '- {name: c, definition: {queries: [{name: q, query: "!include queries/q.graphql"}]}}\n',
  };
  expect(staleFiles(v3, project)).toEqual(['queries/q.graphql']);
});
