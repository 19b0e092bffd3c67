// Reading a metadata directory without a server: the document each layout gives, and the file an
// error names where the CLI's tests do not look (its cases against a server are in cli/).
import type { MetadataDocument } from '../../../spec';
import { exportLayout, filesOfExport, readDirectory, summaryOf } from './directory';

const V3 = { 'version.yaml': 'version: 3\n', 'databases/databases.yaml': '- name: default\n  kind: postgres\n  tables: []\n' };
const refused = (files: Record<string, string>) => () => readDirectory(files);

test('version 2: the lists it holds, the empty ones left out, and nothing else', () => {
  expect(readDirectory({ 'version.yaml': 'version: 2\n', 'tables.yaml': '- table: {schema: public, name: a}\n', 'cron_triggers.yaml': '[]\n' })).toEqual({
    layout: 2,
    document: { version: 2, tables: [{ table: { schema: 'public', name: 'a' } }] },
  });
  expect(readDirectory({ 'version.yaml': 'version: 2\n', 'functions.yaml': '- function: {schema: public, name: f}\n' }).document).toStrictEqual({
    version: 2,
    tables: [],
    functions: [{ function: { schema: 'public', name: 'f' } }],
  });
  expect(refused({ 'version.yaml': 'version: 2\n', 'z.yaml': '', 'b.yaml': '' })).toThrow('b.yaml is no file of the version 2 layout');
  expect(refused({ 'version.yaml': 'version: 2\n', 'actions.yaml': 'actions: [\n' })).toThrow(/^actions\.yaml is not valid YAML \(line 2, column 1\)/);
});

test('version 3: the document replace_metadata takes; an empty file is an empty part', () => {
  expect(readDirectory({ ...V3, 'api_limits.yaml': '', 'inherited_roles.yaml': 'null\n', 'network.yaml': '{}\n' })).toStrictEqual({
    layout: 3,
    document: { version: 3, sources: [{ name: 'default', kind: 'postgres', tables: [] }], api_limits: {}, inherited_roles: [], network: {} },
  });
  expect(refused({ ...V3, 'z.txt': '', 'databases/x.yaml': '' })).toThrow('databases/x.yaml is no file of the version 3 layout');
  expect(refused({ ...V3, 'databases/databases.yaml': '- default\n' })).toThrow('databases/databases.yaml: source 1 must be an object with a name');
  expect(refused({ ...V3, 'cron_triggers.yaml': '5\n' })).toThrow('cron_triggers.yaml must hold a list');
  expect(refused({ ...V3, 'actions.yaml': 'actions: [5]\n' })).toThrow('actions.yaml: actions: item 1 must be an object');
  expect(refused({ ...V3, 'actions.yaml': 'custom_types: {objects: {}}\n' })).toThrow('actions.yaml: custom_types.objects must hold a list');
  expect(refused({ ...V3, 'graphql_schema_introspection.yaml': 'a: 1\nb: 2\n' })).toThrow(
    'graphql_schema_introspection.yaml: unknown key a, b (expected disabled_for_roles)',
  );
  expect(refused({ ...V3, 'version.yaml': 'version: [3\n' })).toThrow(/^version\.yaml is not valid YAML \(line 2, column 1\)/);
});

test('the actions of version 3: actions.yaml and actions.graphql together', () => {
  const actions = {
    'actions.yaml': 'actions:\n  - name: ping\n    definition:\n      kind: synchronous\n      handler: http://h/ping\n',
    'actions.graphql': 'type Query {\n  ping: Pong\n}\n\ntype Pong {\n  ok: Boolean\n}\n',
  };
  expect(readDirectory({ ...V3, ...actions }).document).toStrictEqual({
    version: 3,
    sources: [{ name: 'default', kind: 'postgres', tables: [] }],
    actions: [
      { name: 'ping', definition: { forward_client_headers: false, kind: 'synchronous', handler: 'http://h/ping', type: 'query', output_type: 'Pong' } },
    ],
    custom_types: { objects: [{ name: 'Pong', fields: [{ name: 'ok', type: 'Boolean' }] }] },
  });
  // Without them, none; actions.graphql alone may say custom types.
  expect(readDirectory({ ...V3, 'actions.yaml': 'actions: []\ncustom_types: {}\n' }).document).toStrictEqual(readDirectory(V3).document);
  expect(readDirectory({ ...V3, 'actions.graphql': 'scalar Money\n' }).document.custom_types).toEqual({ scalars: [{ name: 'Money' }] });
});

const withSource: MetadataDocument = {
  version: 2,
  tables: [{ table: { schema: 'public', name: 'a' } }],
  sources: [
    {
      name: 'archive',
      kind: 'postgres',
      configuration: { connection_info: { database_url: 'postgres://h/archive' } },
      tables: [{ table: { schema: 'public', name: 'b' } }, { table: { schema: 'public', name: 'c' } }],
      functions: [{ function: { schema: 'public', name: 'f' } }],
    },
  ],
};

test("export's layout: the one asked for wins over the server's sources and the directory's own", () => {
  expect(exportLayout(2, withSource, { 'version.yaml': 'version: 3\n' })).toBe(2);
  expect(exportLayout(undefined, withSource, { 'version.yaml': 'version: 2\n' })).toBe(3);
});

test("export's line counts the tables and functions of every source", () => {
  expect(summaryOf(withSource)).toBe('3 tables, 1 function, 0 actions, 0 remote schemas, 0 REST endpoints');
  expect(summaryOf({ version: 2, tables: [] })).toBe('0 tables, 0 functions, 0 actions, 0 remote schemas, 0 REST endpoints');
});

test('version 2 files keep long lines whole', () => {
  const query = `query long { ${'field '.repeat(30)}}`;
  const files = filesOfExport({ version: 2, tables: [], query_collections: [{ name: 'c', definition: { queries: [{ name: 'q', query }] } }] }, 2, {});
  expect(files['query_collections.yaml']).toBe(`- name: c\n  definition:\n    queries:\n      - name: q\n        query: ${query}\n`);
});
