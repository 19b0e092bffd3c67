// The top-level parts of the engine's projects beside tables and functions (decision
// dec.metadata.top-level): inherited roles, API limits, introspection options, the TLS allow-list,
// metrics, OpenTelemetry and backend configuration, and the configuration of the server's own
// database (dec.metadata.default-source). Each is taken by replace_metadata in both forms, kept,
// exported as it was set, changed by its operations; bad input is refused and changes nothing.
import { branded } from '../harness/brand';
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql, musicTable } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const exported = async () => (await run('export_metadata', {})).body as Record<string, unknown>;
const refused = (code: string, error: string, path = '$.args') => ({ path, error, code });

/** Two roles with select permissions on artist: the parents of the inherited roles below. */
const artist = {
  table: musicTable('artist'),
  select_permissions: [
    { role: 'critic', permission: { columns: '*', filter: { country: { _eq: 'NO' } } } },
    { role: 'fan', permission: { columns: ['id', 'name'], filter: {} } },
  ],
};

const TABLES = [artist];

/** Every part, in the form the export gives it back. */
const PARTS = {
  api_limits: {
    rate_limit: { global: { max_reqs_per_min: 100, unique_params: 'IP' }, per_role: { fan: { max_reqs_per_min: 10, unique_params: ['x-engine-user-id'] } } },
    depth_limit: { global: 5, per_role: { fan: 3 } },
    node_limit: { global: 10, per_role: {} },
    time_limit: { global: 2.5, per_role: {} },
    batch_limit: { global: 3, per_role: {} },
    disabled: false,
  },
  metrics_config: { analyze_query_variables: true, analyze_response_body: false },
  inherited_roles: [{ role_name: 'audience', role_set: ['fan', 'critic'] }],
  graphql_schema_introspection: { disabled_for_roles: ['fan'] },
  network: { tls_allowlist: [{ host: 'localhost', suffix: '4183', permissions: ['self-signed'] }, { host: 'example.org' }] },
  backend_configs: { dataconnector: { sqlite: { uri: 'http://localhost:8100' } } },
  opentelemetry: { status: 'disabled', data_types: ['traces'], exporter_otlp: { otlp_traces_endpoint: 'http://localhost:4318/v1/traces' } },
  default_source: {
    configuration: {
      connection_info: { database_url: { from_env: 'ENGINE_GRAPHQL_DATABASE_URL' }, isolation_level: 'repeatable-read', pool_settings: { max_connections: 8 } },
    },
    customization: { naming_convention: 'hasura-default' },
  },
};

beforeAll(async () => {
  await target.sql(fixtureSql('music'));
  expectResponse(await run('reload_metadata', {}), 200);
});
// A document that names default_source as null takes the server's description of its database away.
beforeEach(async () => {
  expectResponse(await run('replace_metadata', { version: 2, tables: TABLES, default_source: null }), 200, ok);
});
afterAll(async () => {
  expectResponse(await run('replace_metadata', { version: 2, tables: [], default_source: null }), 200, ok);
});

test(
  covers(
    ['dec.metadata.top-level', 'dec.metadata.default-source', 'op.replace_metadata.v2', 'op.export_metadata.v1'],
    'every top-level part is taken by replace_metadata, kept and exported as it was set; replacing the export changes nothing',
  ),
  async () => {
    const document = { version: 2, tables: TABLES, ...PARTS };
    expectResponse(await run('replace_metadata', { metadata: document }), 200, { is_consistent: true, inconsistent_objects: [] });
    expect(await exported()).toEqual(branded(document));
    expectResponse(await run('replace_metadata', { metadata: await exported() }), 200, { is_consistent: true, inconsistent_objects: [] });
    expect(await exported()).toEqual(branded(document));
    // The forms the engine also takes: a host alone, "ip", limits without per_role, disabled left out.
    const given = {
      ...document,
      api_limits: { depth_limit: { global: 4 }, rate_limit: { global: { max_reqs_per_min: 7, unique_params: 'ip' } } },
      network: { tls_allowlist: ['example.org'] },
      graphql_schema_introspection: { disabled_for_roles: ['fan', 'fan'] },
    };
    expectResponse(await run('replace_metadata', given), 200, ok);
    expect(await exported()).toEqual(
      branded({
        ...document,
        api_limits: {
          rate_limit: { global: { max_reqs_per_min: 7, unique_params: 'IP' }, per_role: {} },
          depth_limit: { global: 4, per_role: {} },
          disabled: false,
        },
        network: { tls_allowlist: [{ host: 'example.org' }] },
        graphql_schema_introspection: { disabled_for_roles: ['fan'] },
      }),
    );
  },
);

test(
  covers(
    ['dec.metadata.top-level', 'dec.metadata.default-source', 'dec.metadata.older-forms', 'op.replace_metadata.v2'],
    'version 3 documents carry the same parts: the default source gives its configuration and customization; empty parts are left out',
  ),
  async () => {
    const { default_source: own, ...parts } = PARTS;
    const v3 = { version: 3, sources: [{ name: 'default', kind: 'postgres', tables: TABLES, ...own }], ...parts };
    expectResponse(await run('replace_metadata', { metadata: v3 }), 200, { is_consistent: true, inconsistent_objects: [] });
    expect(await exported()).toEqual(branded({ version: 2, tables: TABLES, ...PARTS }));
    const empty = {
      version: 3,
      sources: [{ name: 'default', kind: 'postgres', tables: TABLES }],
      inherited_roles: [],
      api_limits: {},
      graphql_schema_introspection: { disabled_for_roles: [] },
      network: { tls_allowlist: [] },
      metrics_config: { analyze_query_variables: false, analyze_response_body: false },
      backend_configs: {},
      opentelemetry: {},
    };
    expectResponse(await run('replace_metadata', { metadata: empty }), 200, { is_consistent: true, inconsistent_objects: [] });
    expect(await exported()).toEqual(branded({ version: 2, tables: TABLES }));
  },
);

test(
  covers(
    ['dec.metadata.default-source', 'op.clear_metadata', 'op.replace_metadata.v1'],
    "clear_metadata, and a document that does not say how it describes the server's own database, keep the server's description, as the engine keeps its default source; null or {} takes it away",
  ),
  async () => {
    expectResponse(await run('replace_metadata', { version: 2, tables: TABLES, ...PARTS }), 200, ok);
    expectResponse(await run('clear_metadata', {}), 200, ok);
    const { configuration } = PARTS.default_source;
    expect(await exported()).toEqual(branded({ version: 2, tables: [], default_source: { configuration } }));
    expectResponse(await run('replace_metadata', { version: 2, tables: TABLES }), 200, ok);
    expect(await exported()).toEqual(branded({ version: 2, tables: TABLES, default_source: { configuration } }));
    expectResponse(await run('replace_metadata', { version: 2, tables: TABLES, default_source: {} }), 200, ok);
    expect(await exported()).toEqual(branded({ version: 2, tables: TABLES }));
  },
);

test(
  covers(
    [
      'op.add_inherited_role',
      'op.drop_inherited_role',
      'op.set_api_limits',
      'op.remove_api_limits',
      'op.set_graphql_schema_introspection_options',
      'op.add_host_to_tls_allowlist',
      'op.drop_host_from_tls_allowlist',
      'op.set_metrics_config',
      'op.remove_metrics_config',
      'op.set_opentelemetry_config',
      'op.set_opentelemetry_status',
    ],
    'each part has its operations; the export says what they did',
  ),
  async () => {
    const steps: [string, unknown][] = [
      ['add_inherited_role', { role_name: 'audience', role_set: ['fan', 'critic'] }],
      ['set_api_limits', { depth_limit: { global: 5, per_role: { fan: 3 } } }],
      ['set_graphql_schema_introspection_options', { disabled_for_roles: ['fan'] }],
      ['add_host_to_tls_allowlist', { host: 'localhost', suffix: '4183', permissions: ['self-signed'] }],
      ['add_host_to_tls_allowlist', 'example.org'],
      ['set_metrics_config', { analyze_query_variables: true, analyze_response_body: false }],
      ['set_opentelemetry_config', { exporter_otlp: { otlp_traces_endpoint: 'http://localhost:4318/v1/traces' } }],
      ['set_opentelemetry_status', 'enabled'],
    ];
    for (const [type, args] of steps) expectResponse(await run(type, args), 200, ok);
    expect(await exported()).toEqual(
      branded({
        version: 2,
        tables: TABLES,
        api_limits: { depth_limit: { global: 5, per_role: { fan: 3 } }, disabled: false },
        metrics_config: { analyze_query_variables: true, analyze_response_body: false },
        inherited_roles: [{ role_name: 'audience', role_set: ['fan', 'critic'] }],
        graphql_schema_introspection: { disabled_for_roles: ['fan'] },
        network: { tls_allowlist: [{ host: 'localhost', suffix: '4183', permissions: ['self-signed'] }, { host: 'example.org' }] },
        opentelemetry: { exporter_otlp: { otlp_traces_endpoint: 'http://localhost:4318/v1/traces' }, status: 'enabled' },
      }),
    );
    // A role of the same name is replaced, as the engine replaces it.
    expectResponse(await run('add_inherited_role', { role_name: 'audience', role_set: ['critic'] }), 200, ok);
    const undo: [string, unknown][] = [
      ['drop_inherited_role', { role_name: 'audience' }],
      ['remove_api_limits', {}],
      ['set_graphql_schema_introspection_options', { disabled_for_roles: [] }],
      ['drop_host_from_tls_allowlist', { host: 'localhost', suffix: '4183' }],
      ['drop_host_from_tls_allowlist', { host: 'example.org' }],
      ['remove_metrics_config', {}],
      ['set_opentelemetry_config', {}],
    ];
    for (const [type, args] of undo) expectResponse(await run(type, args), 200, ok);
    expect(await exported()).toEqual(branded({ version: 2, tables: TABLES }));
  },
);

test(
  covers(
    [
      'err.invalid-params.inherited-role-in-set',
      'err.not-exists.inherited-role',
      'err.not-exists.parent-roles',
      'err.cyclic-dependency.roles',
      'err.already-exists.tls-host',
      'err.not-exists.tls-host',
      'err.bad-request.tls-host-empty',
      'dec.network.tls-allowlist',
      'op.add_inherited_role',
      'op.add_host_to_tls_allowlist',
      'op.set_api_limits',
    ],
    "bad input to each operation is refused at its place, in the engine's words, and changes nothing",
  ),
  async () => {
    expectResponse(await run('add_inherited_role', { role_name: 'audience', role_set: ['fan', 'critic'] }), 200, ok);
    expectResponse(await run('add_host_to_tls_allowlist', { host: 'localhost', suffix: '4183' }), 200, ok);
    const before = await exported();
    const cases: [string, unknown, number, unknown][] = [
      [
        'add_inherited_role',
        { role_name: 'fan', role_set: ['fan', 'critic'] },
        400,
        refused('invalid-params', 'an inherited role name cannot be in the role combination'),
      ],
      [
        'add_inherited_role',
        { role_name: 'crowd', role_set: ['fan', 'nobody', 'ghost'] },
        400,
        refused('not-exists', 'the following parent role(s) are not found: nobody, ghost which are required to construct the inherited role: "crowd"'),
      ],
      ['add_inherited_role', { role_name: 'crowd', role_set: [] }, 400, refused('parse-failed', "can't be empty", '$.args.role_set')],
      [
        'add_inherited_role',
        { role_name: 'admin', role_set: ['fan'] },
        400,
        refused('invalid-params', 'the role "admin" cannot be an inherited role', '$.args.role_name'),
      ],
      ['add_inherited_role', { role_name: 'crowd' }, 400, refused('parse-failed', 'key "role_set" not found')],
      ['drop_inherited_role', { role_name: 'crowd' }, 400, refused('not-exists', '"crowd" inherited role doesn\'t exist')],
      [
        'add_host_to_tls_allowlist',
        { host: 'localhost', suffix: '4183' },
        400,
        refused('already-exists', 'the host "localhost" with suffix "4183" already exists in the allowlist'),
      ],
      ['add_host_to_tls_allowlist', { host: '' }, 400, refused('bad-request', 'key "host" cannot be empty')],
      [
        'add_host_to_tls_allowlist',
        { host: 'h', permissions: ['any'] },
        400,
        refused('parse-failed', 'unexpected value "any"; expected one of "self-signed"', '$.args.permissions[0]'),
      ],
      ['drop_host_from_tls_allowlist', { host: 'localhost' }, 400, refused('not-exists', 'the host "localhost" isn\'t present in the allowlist')],
      ['drop_host_from_tls_allowlist', { host: '' }, 400, refused('bad-request', 'hostname cannot be empty')],
      ['set_api_limits', { depth_limit: { per_role: {} } }, 400, refused('parse-failed', 'key "global" not found', '$.args.depth_limit')],
      ['set_api_limits', { node_limit: { global: -1 } }, 400, refused('parse-failed', 'expected a number not below 0', '$.args.node_limit.global')],
      [
        'set_api_limits',
        { rate_limit: { global: { max_reqs_per_min: 1, unique_params: ['x-engine-role'] } } },
        400,
        refused(
          'parse-failed',
          "Not a valid value. Should be either: 'IP' or a list of session variables (x-engine-*) other than x-engine-role",
          '$.args.rate_limit.global.unique_params',
        ),
      ],
      ['set_api_limits', { depth: 1 }, 400, refused('parse-failed', 'unexpected key "depth"')],
      ['set_graphql_schema_introspection_options', {}, 400, refused('parse-failed', 'key "disabled_for_roles" not found')],
      [
        'set_metrics_config',
        { analyze_query_variables: 'yes' },
        400,
        refused('parse-failed', 'expected Boolean, but encountered String', '$.args.analyze_query_variables'),
      ],
      [
        'set_opentelemetry_config',
        { status: 'on' },
        400,
        refused('parse-failed', 'unexpected value "on"; expected one of "enabled", "disabled"', '$.args.status'),
      ],
      ['set_opentelemetry_status', 'on', 400, refused('parse-failed', 'unexpected value "on"; expected one of "enabled", "disabled"')],
    ];
    for (const [type, args, status, body] of cases) expectResponse(await run(type, args), status, body);
    // A second inherited role that would close a cycle.
    expectResponse(await run('add_inherited_role', { role_name: 'crowd', role_set: ['audience'] }), 200, ok);
    expectResponse(
      await run('add_inherited_role', { role_name: 'audience', role_set: ['crowd', 'fan'] }),
      400,
      refused('cyclic-dependency', 'found cycle(s) in roles: ["audience","crowd","audience"]'),
    );
    expectResponse(await run('drop_inherited_role', { role_name: 'crowd' }), 200, ok);
    expect(await exported()).toEqual(branded(before));
  },
);

test(
  covers(
    ['dec.metadata.top-level', 'dec.metadata.default-source', 'err.cyclic-dependency.roles', 'err.not-supported.not-implemented'],
    'replace_metadata refuses parts it cannot take at their place and changes nothing',
  ),
  async () => {
    const before = await exported();
    const at = (part: string) => `$.args.metadata.${part}`;
    const cases: [unknown, unknown][] = [
      [
        {
          inherited_roles: [
            { role_name: 'a', role_set: ['b'] },
            { role_name: 'b', role_set: ['a'] },
          ],
        },
        refused('cyclic-dependency', 'found cycle(s) in roles: ["a","b","a"]'),
      ],
      [
        {
          inherited_roles: [
            { role_name: 'a', role_set: ['fan'] },
            { role_name: 'a', role_set: ['critic'] },
          ],
        },
        refused('already-exists', 'multiple declarations exist for the following inherited roles : "a"', at('inherited_roles')),
      ],
      [
        { network: { tls_allowlist: ['h', { host: 'h' }] } },
        refused('already-exists', 'the host "h" already exists in the allowlist', at('network.tls_allowlist[1]')),
      ],
      [
        { api_limits: { time_limit: { global: 'soon' } } },
        refused('parse-failed', 'expected Number, but encountered String', at('api_limits.time_limit.global')),
      ],
      [
        { default_source: { customization: { root_fields: { prefix: 'lib-' } } } },
        refused('parse-failed', '"lib-" is not a GraphQL name', at('default_source.customization.root_fields.prefix')),
      ],
      [
        { default_source: { configuration: { connection_info: {} } } },
        refused('parse-failed', 'key "database_url" not found', at('default_source.configuration.connection_info')),
      ],
    ];
    for (const [parts, body] of cases)
      expectResponse(await run('replace_metadata', { metadata: { version: 2, tables: TABLES, ...(parts as object) } }), 400, body);
    expect(await exported()).toEqual(branded(before));
  },
);
