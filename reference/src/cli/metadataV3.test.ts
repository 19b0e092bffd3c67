// `engine-reference metadata` over the engine CLI's current layout (version 3): the project of
// fixtures/projects/cli-v3 applies whole, exports back byte for byte, and diff speaks per file.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDatabase, dropDatabase } from '../../../conformance/harness/database';
import { CLUSTER_URL_VARIABLE } from '../../../conformance/harness/environment';
import { CLI_V3_PROJECT, cliV3Sql, treeOf, useMetadataCli } from '../../test-support/metadataCli';

const harness = useMetadataCli('all');
const { cli, post } = harness;
const METADATA = join(CLI_V3_PROJECT, 'metadata');
/** export_metadata's answer once the project is applied: every table, function, action, … of its files. */
const APPLIED = JSON.parse(readFileSync(join(CLI_V3_PROJECT, 'export_metadata.json'), 'utf8')) as Record<string, unknown>;
const SUMMARY = '4 tables, 1 function, 1 action, 0 remote schemas, 1 REST endpoint';

beforeAll(async () => {
  expect((await post({ type: 'run_sql', args: { sql: cliV3Sql() } }, '/v2/query')).status).toBe(200);
});
beforeEach(async () => {
  expect(await post({ type: 'clear_metadata', args: {} })).toEqual({ status: 200, body: { message: 'success' } });
  cpSync(METADATA, harness.dir, { recursive: true });
});

test('the project applies: the server then holds every table, relationship, permission, function, action, cron trigger, collection and endpoint', async () => {
  const { dir } = harness;
  expect(await cli('apply', dir)).toEqual({
    code: 0,
    out:
      `applied ${dir}: changed actions.graphql, actions.yaml, allow_list.yaml, api_limits.yaml, cron_triggers.yaml, databases/databases.yaml, ` +
      'databases/default/functions/functions.yaml, databases/default/functions/public_search_posts.yaml, databases/default/tables/public_comments.yaml, ' +
      'databases/default/tables/public_post_status.yaml, databases/default/tables/public_posts.yaml, databases/default/tables/public_users.yaml, ' +
      'databases/default/tables/tables.yaml, graphql_schema_introspection.yaml, inherited_roles.yaml, network.yaml, query_collections.yaml, rest_endpoints.yaml',
    err: '',
  });
  expect(await harness.exported()).toEqual(APPLIED);
  expect((APPLIED.tables as unknown[]).length).toBe(4);
  expect(await cli('diff', dir)).toEqual({ code: 0, out: 'no differences', err: '' });
  expect(await cli('apply', dir)).toEqual({ code: 0, out: `applied ${dir}: nothing changed`, err: '' });
});

test('export writes the project back byte for byte; into an empty directory only the words for the server’s own database are its plain ones', async () => {
  const { dir } = harness;
  expect((await cli('apply', dir)).code).toBe(0);
  // The directory already holds version 3: export keeps it, and its words for the default source.
  expect(await cli('export', dir)).toEqual({ code: 0, out: `wrote 20 files of layout 3 to ${dir}: ${SUMMARY}`, err: '' });
  expect(treeOf(dir)).toEqual(treeOf(METADATA));
  const fresh = join(dir, '..', `${dir.split('/').pop()}-fresh`);
  try {
    expect(await cli('export', fresh, '--layout', '3')).toEqual({ code: 0, out: `wrote 20 files of layout 3 to ${fresh}: ${SUMMARY}`, err: '' });
    const databases = 'databases/databases.yaml';
    expect({ ...treeOf(fresh), [databases]: '' }).toEqual({ ...treeOf(METADATA), [databases]: '' });
    expect(treeOf(fresh)[databases]).toBe(
      [
        '- name: default',
        '  kind: postgres',
        '  configuration:',
        '    connection_info:',
        '      database_url:',
        '        from_env: ENGINE_GRAPHQL_DATABASE_URL',
        '      isolation_level: read-committed',
        '  tables: "!include default/tables/tables.yaml"',
        '  functions: "!include default/functions/functions.yaml"',
        '',
      ].join('\n'),
    );
    expect(await cli('diff', fresh)).toEqual({ code: 0, out: 'no differences', err: '' });
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
});

test('diff shows per file what the directory would change; apply says which files changed; export removes the files of what is gone', async () => {
  const { dir } = harness;
  expect((await cli('apply', dir)).code).toBe(0);
  const users = join(dir, 'databases/default/tables/public_users.yaml');
  writeFileSync(users, readFileSync(users, 'utf8').replace('        - email\n        - id\n        - name\n', '        - email\n        - id\n'));
  const tables = join(dir, 'databases/default/tables/tables.yaml');
  writeFileSync(tables, readFileSync(tables, 'utf8').replace('- "!include public_post_status.yaml"\n', ''));
  rmSync(join(dir, 'databases/default/tables/public_post_status.yaml'));
  const diff = await cli('diff', dir);
  expect(diff).toEqual({
    code: 1,
    out: [
      '--- server/databases/default/tables/public_post_status.yaml',
      '+++ dir/databases/default/tables/public_post_status.yaml',
      '@@ -1,4 +1,0 @@',
      '-table:',
      '-  schema: public',
      '-  name: post_status',
      '-is_enum: true',
      '--- server/databases/default/tables/public_users.yaml',
      '+++ dir/databases/default/tables/public_users.yaml',
      '@@ -30,3 +30,2 @@',
      '         - id',
      '-        - name',
      '       filter:',
      '--- server/databases/default/tables/tables.yaml',
      '+++ dir/databases/default/tables/tables.yaml',
      '@@ -1,3 +1,2 @@',
      ' - "!include public_comments.yaml"',
      '-- "!include public_post_status.yaml"',
      ' - "!include public_posts.yaml"',
    ].join('\n'),
    err: '',
  });
  expect(await cli('apply', dir)).toEqual({
    code: 0,
    out: `applied ${dir}: changed databases/default/tables/public_post_status.yaml, databases/default/tables/public_users.yaml, databases/default/tables/tables.yaml`,
    err: '',
  });
  const after = (await harness.exported()) as { tables: { table: { name: string } }[] };
  expect(after.tables.map((t) => t.table.name)).toEqual(['comments', 'posts', 'users']);
  expect(after.tables[2]).toEqual({
    ...(APPLIED.tables as object[])[3],
    select_permissions: [
      { role: 'anonymous', permission: { columns: ['id', 'name'], filter: {} } },
      { role: 'user', permission: { columns: ['email', 'id'], filter: { id: { _eq: 'X-Engine-User-Id' } } } },
    ],
  });
  // The server's state exported over the project: the table that is gone takes its file with it.
  cpSync(METADATA, dir, { recursive: true });
  expect(await cli('export', dir)).toEqual({
    code: 0,
    out: `wrote 19 files of layout 3 to ${dir} (removed databases/default/tables/public_post_status.yaml): 3 tables, 1 function, 1 action, 0 remote schemas, 1 REST endpoint`,
    err: '',
  });
  expect(await cli('diff', dir)).toEqual({ code: 0, out: 'no differences', err: '' });
});

test('the files the CLI writes empty apply as nothing; with content, each top-level part is applied, exported and written back', async () => {
  const { dir } = harness;
  // What `hasura init` writes (null) and newer CLIs add ({}), beside the project's own ones.
  writeFileSync(join(dir, 'api_limits.yaml'), 'null\n');
  for (const file of ['backend_configs.yaml', 'metrics_config.yaml', 'opentelemetry.yaml']) writeFileSync(join(dir, file), '{}\n');
  expect((await cli('apply', dir)).code).toBe(0);
  const { api_limits: _limits, ...withoutLimits } = APPLIED;
  expect(await harness.exported()).toEqual(withoutLimits);
  cpSync(join(METADATA, 'api_limits.yaml'), join(dir, 'api_limits.yaml'));
  writeFileSync(join(dir, 'metrics_config.yaml'), 'analyze_query_variables: true\nanalyze_response_body: false\n');
  writeFileSync(join(dir, 'opentelemetry.yaml'), 'status: disabled\ndata_types:\n  - traces\n');
  expect(await cli('apply', dir)).toEqual({ code: 0, out: `applied ${dir}: changed api_limits.yaml, metrics_config.yaml, opentelemetry.yaml`, err: '' });
  expect(await harness.exported()).toEqual({
    ...APPLIED,
    metrics_config: { analyze_query_variables: true, analyze_response_body: false },
    opentelemetry: { status: 'disabled', data_types: ['traces'] },
  });
  expect(await cli('diff', dir)).toEqual({ code: 0, out: 'no differences', err: '' });
  // A part of the wrong shape is refused where it stands; nothing changes.
  writeFileSync(join(dir, 'inherited_roles.yaml'), '- role_name: admin\n  role_set:\n    - user\n');
  expect(await cli('apply', dir)).toEqual({
    code: 1,
    out: '',
    err: `the server refused the metadata of ${dir}; nothing changed (400): {"path":"$.args.inherited_roles[0].role_name","error":"the role \\"admin\\" cannot be an inherited role","code":"invalid-params"}`,
  });
});

test('export chooses the layout: --layout, else 3 for a server with other sources, else the directory’s own; the other layout’s files go', async () => {
  const { dir } = harness;
  expect((await cli('apply', dir)).code).toBe(0);
  rmSync(dir, { recursive: true });
  mkdirSync(dir);
  expect(await cli('export', dir)).toEqual({ code: 0, out: `wrote 11 files of layout 2 to ${dir}: ${SUMMARY}`, err: '' });
  expect(await cli('export', dir, '--layout', '3')).toEqual({
    code: 0,
    out: `wrote 20 files of layout 3 to ${dir} (removed functions.yaml, sources.yaml, tables.yaml): ${SUMMARY}`,
    err: '',
  });
  expect(await cli('diff', dir)).toEqual({ code: 0, out: 'no differences', err: '' });
  expect(await cli('export', dir, '--layout', '2')).toEqual({
    code: 0,
    out:
      `wrote 11 files of layout 2 to ${dir} (removed api_limits.yaml, databases/databases.yaml, databases/default/functions/functions.yaml, ` +
      'databases/default/functions/public_search_posts.yaml, databases/default/tables/public_comments.yaml, databases/default/tables/public_post_status.yaml, ' +
      'databases/default/tables/public_posts.yaml, databases/default/tables/public_users.yaml, databases/default/tables/tables.yaml, ' +
      `graphql_schema_introspection.yaml, inherited_roles.yaml, network.yaml): ${SUMMARY}`,
    err: '',
  });
  expect(Object.keys(treeOf(dir))).not.toContain('databases/databases.yaml');
  expect(await cli('apply', dir)).toEqual({ code: 0, out: `applied ${dir}: nothing changed`, err: '' });
  // Another source: version 3, whatever the directory holds.
  const archive = await createDatabase(process.env[CLUSTER_URL_VARIABLE]!);
  try {
    const configuration = { connection_info: { database_url: archive.url } };
    expect(await post({ type: 'pg_add_source', args: { name: 'archive', configuration } })).toEqual({ status: 200, body: { message: 'success' } });
    expect(await cli('export', dir)).toEqual(
      expect.objectContaining({ code: 0, out: expect.stringMatching(`^wrote 21 files of layout 3 to ${dir} \\(removed `) }),
    );
    expect(readFileSync(join(dir, 'databases/databases.yaml'), 'utf8')).toMatch(
      /\n- name: archive\n {2}kind: postgres\n {2}configuration:\n {4}connection_info:\n {6}database_url: .*\n {2}tables: "!include archive\/tables\/tables.yaml"\n$/,
    );
    expect(treeOf(dir)['databases/archive/tables/tables.yaml']).toBe('[]\n');
    expect(await cli('diff', dir)).toEqual({ code: 0, out: 'no differences', err: '' });
  } finally {
    await post({ type: 'pg_drop_source', args: { name: 'archive' } });
    await dropDatabase(process.env[CLUSTER_URL_VARIABLE]!, archive.name);
  }
});
