// `engine-reference metadata export|apply|diff` against a real server: the directory round-trips
// exactly, apply is all or nothing and says what changed, diff shows the lines.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { useMetadataCli } from '../../test-support/metadataCli';
import { metadataCommand } from './metadata';

const harness = useMetadataCli('each');
const { post, cli } = harness;

const DOCUMENT = {
  version: 2,
  // In the engine's order: by name.
  tables: [
    { table: { schema: 'public', name: 'book' }, select_permissions: [{ role: 'reader', permission: { columns: ['id', 'title'], filter: {} } }] },
    {
      table: { schema: 'public', name: 'shelf' },
      array_relationships: [{ name: 'books', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'book' }, column: 'shelf_id' } } }],
    },
  ],
  query_collections: [{ name: 'c', definition: { queries: [{ name: 'q', query: 'query q { book { id } }' }] } }],
  allowlist: [{ collection: 'c' }],
  custom_types: {
    enums: [{ name: 'Mood', values: [{ value: 'HAPPY' }, { value: 'SAD', description: 'not happy' }] }],
    objects: [
      {
        name: 'Review',
        fields: [
          { name: 'book_id', type: 'Int!' },
          { name: 'mood', type: 'Mood' },
        ],
        relationships: [{ name: 'book', type: 'object', remote_table: { schema: 'public', name: 'book' }, field_mapping: { book_id: 'id' } }],
      },
    ],
  },
  actions: [
    {
      name: 'review',
      definition: {
        kind: 'synchronous',
        type: 'mutation',
        arguments: [{ name: 'book_id', type: 'Int!' }],
        output_type: 'Review',
        handler: '{{REVIEW_URL}}/review',
        forward_client_headers: false,
        timeout: 30,
      },
      comment: 'write a review',
      permissions: [{ role: 'reader' }],
    },
  ],
};

beforeEach(async () => {
  await post(
    {
      type: 'run_sql',
      args: { sql: 'create table shelf (id int primary key); create table book (id int primary key, title text, shelf_id int references shelf (id))' },
    },
    '/v2/query',
  );
  expect(await post({ type: 'replace_metadata', args: DOCUMENT })).toEqual({ status: 200, body: { message: 'success' } });
});

test('export writes the directory of SPEC.md §2.2; apply of it on a cleared server gives the same metadata', async () => {
  const { dir } = harness;
  expect(await cli('export', dir)).toEqual({
    code: 0,
    out: `wrote 11 files of layout 2 to ${dir}: 2 tables, 0 functions, 1 action, 0 remote schemas, 0 REST endpoints`,
    err: '',
  });
  expect(readdirSync(dir).sort()).toEqual([
    'actions.graphql',
    'actions.yaml',
    'allow_list.yaml',
    'cron_triggers.yaml',
    'functions.yaml',
    'query_collections.yaml',
    'remote_schemas.yaml',
    'rest_endpoints.yaml',
    'sources.yaml',
    'tables.yaml',
    'version.yaml',
  ]);
  expect(readFileSync(join(dir, 'actions.graphql'), 'utf8')).toBe(
    'type Mutation {\n  "write a review"\n  review(\n    book_id: Int!\n  ): Review\n}\n\ntype Review {\n  book_id: Int!\n  mood: Mood\n}\n\nenum Mood {\n  HAPPY\n  "not happy"\n  SAD\n}\n',
  );
  expect(readFileSync(join(dir, 'allow_list.yaml'), 'utf8')).toBe('- collection: c\n');
  expect(readFileSync(join(dir, 'functions.yaml'), 'utf8')).toBe('[]\n');
  expect(await post({ type: 'clear_metadata', args: {} })).toEqual({ status: 200, body: { message: 'success' } });
  expect(await cli('apply', dir)).toEqual({
    code: 0,
    out: `applied ${dir}: changed tables.yaml, actions.yaml, actions.graphql, allow_list.yaml, query_collections.yaml`,
    err: '',
  });
  expect(await post({ type: 'export_metadata', args: {} })).toEqual({ status: 200, body: DOCUMENT });
  expect(await cli('diff', dir)).toEqual({ code: 0, out: 'no differences', err: '' });
});

test('diff shows the changed lines; apply of a directory the server refuses changes nothing', async () => {
  const { dir } = harness;
  await cli('export', dir);
  const tables = readFileSync(join(dir, 'tables.yaml'), 'utf8');
  expect(tables).toContain('      permission:\n        columns:\n          - id\n          - title\n');
  writeFileSync(join(dir, 'tables.yaml'), tables.replace('          - id\n', '          - id\n          - shelf_id\n'));
  const diff = await cli('diff', dir);
  expect(diff.code).toBe(1);
  expect(diff.out).toBe(
    ['--- server/tables.yaml', '+++ dir/tables.yaml', '@@ -8,2 +8,3 @@', '           - id', '+          - shelf_id', '           - title'].join('\n'),
  );
  expect(await cli('apply', dir)).toEqual({ code: 0, out: `applied ${dir}: changed tables.yaml`, err: '' });
  expect(((await post({ type: 'export_metadata', args: {} })).body as typeof DOCUMENT).tables[0]).toEqual({
    ...DOCUMENT.tables[0],
    select_permissions: [{ role: 'reader', permission: { columns: ['id', 'shelf_id', 'title'], filter: {} } }],
  });
  // A table that does not exist: refused, nothing changed.
  const before = await post({ type: 'export_metadata', args: {} });
  writeFileSync(join(dir, 'tables.yaml'), readFileSync(join(dir, 'tables.yaml'), 'utf8') + '- table:\n    schema: public\n    name: missing\n');
  const refused = await cli('apply', dir);
  expect(refused.code).toBe(1);
  expect(refused.err).toMatch(new RegExp(`^the server refused the metadata of ${dir}; nothing changed \\(400\\): `));
  expect(await post({ type: 'export_metadata', args: {} })).toEqual(before);
  writeFileSync(join(dir, 'actions.graphql'), 'type Mutation {');
  // A directory that cannot be read is not a difference (1) but work that could not be done (2), as for engine-conformance.
  expect(await cli('apply', dir)).toEqual({ code: 2, out: '', err: `${dir}: actions.graphql does not parse: Syntax Error: Expected Name, found <EOF>.` });
  expect(await cli('diff', dir)).toEqual({ code: 2, out: '', err: `${dir}: actions.graphql does not parse: Syntax Error: Expected Name, found <EOF>.` });
});

test('bad usage and an unreachable server: exit 2 with what is wrong, as engine-conformance; --help', async () => {
  const { dir } = harness;
  expect(await cli('export')).toEqual(
    expect.objectContaining({ code: 2, err: expect.stringMatching(/^engine-reference metadata: expected export, apply or diff and a directory/) }),
  );
  expect(await cli('publish', dir)).toEqual(expect.objectContaining({ code: 2 }));
  expect(await cli('export', dir, '--colour')).toEqual({ code: 2, out: '', err: 'engine-reference metadata: unknown flag --colour' });
  // The layout is export's to choose; apply and diff take the one version.yaml names.
  for (const [argv, problem] of [
    [['export', dir, '--layout', '4'], '--layout 4: the layouts are 2 and 3'],
    [['apply', dir, '--layout', '3'], "--layout is for export: apply reads the layout DIR's version.yaml names"],
    [['diff', dir, '--layout', '2'], "--layout is for export: diff reads the layout DIR's version.yaml names"],
  ] as const) {
    expect(await cli(...argv)).toEqual({ code: 2, out: '', err: expect.stringMatching(`^engine-reference metadata: ${problem}\n\nUsage: `) });
  }
  expect(readdirSync(dir)).toEqual([]);
  expect((await cli('--help')).out).toMatch(/^Usage: engine-reference metadata <export\|apply\|diff> DIR/);
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const errors: string[] = [];
  expect(await metadataCommand(['export', dir, '--endpoint', `http://127.0.0.1:${port}`], {}, { out: () => {}, err: (l) => errors.push(l) })).toBe(2);
  expect(errors).toEqual([expect.stringMatching(new RegExp(`^cannot reach the server at http://127.0.0.1:${port}: `))]);
  errors.length = 0;
  expect(await metadataCommand(['export', dir, '--endpoint', harness.url, '--admin-secret', 'wrong'], {}, { out: () => {}, err: (l) => errors.push(l) })).toBe(
    2,
  );
  expect(errors).toEqual(['the server refused export_metadata (401): {"path":"$","error":"invalid x-engine-admin-secret","code":"access-denied"}']);
});
