// Generated top-level parts of a metadata document (decision dec.metadata.top-level), in the form
// the export gives them back, for the replace_metadata fuzzer: inherited roles over the roles a
// document's permissions name, API limits, introspection options, the TLS allow-list, metrics,
// OpenTelemetry and backend configuration; and objects of these kinds that are refused or inconsistent.
import fc from 'fast-check';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type TopLevelParts = {
  inherited_roles?: { role_name: string; role_set: string[] }[];
  api_limits?: Record<string, Json>;
  graphql_schema_introspection?: { disabled_for_roles: string[] };
  network?: { tls_allowlist: Record<string, Json>[] };
  metrics_config?: { analyze_query_variables: boolean; analyze_response_body: boolean };
  opentelemetry?: Record<string, Json>;
  backend_configs?: Record<string, Json>;
};

/** What of a document names roles: its tables', functions' and remote schemas' permissions. */
interface Permissioned {
  tables: readonly object[];
  functions?: readonly object[];
  remote_schemas?: readonly object[];
}

/** Every role a permission of the document names, in a stable order. */
export function rolesOf(document: Permissioned): string[] {
  const roles = new Set<string>();
  const listed = (entry: object, key: string) => ((entry as Record<string, unknown>)[key] as { role: string }[] | undefined) ?? [];
  for (const t of document.tables) {
    for (const key of ['insert_permissions', 'select_permissions', 'update_permissions', 'delete_permissions'])
      for (const p of listed(t, key)) roles.add(p.role);
  }
  for (const f of document.functions ?? []) for (const p of listed(f, 'permissions')) roles.add(p.role);
  for (const r of document.remote_schemas ?? []) for (const p of listed(r, 'permissions')) roles.add(p.role);
  return [...roles].sort();
}

/**
 * Inherited roles, each of one parent (a role of the document or an inherited role before it): one
 * parent always agrees with itself, so the document stays consistent whatever its permissions.
 */
const inheritedRoles = (roles: readonly string[]): fc.Arbitrary<{ role_name: string; role_set: string[] }[]> =>
  roles.length === 0
    ? fc.constant([])
    : fc.array(fc.nat(), { maxLength: 3 }).map((picks) =>
        picks.map((pick, i) => {
          const parents = [...roles, ...picks.slice(0, i).map((_p, j) => `ir${j}`)];
          return { role_name: `ir${i}`, role_set: [parents[pick % parents.length]!] };
        }),
      );

/** A limit of every role, with other ones for some; generous enough that the fuzzer's requests pass. */
const limit = <T>(value: fc.Arbitrary<T>) =>
  fc.record({ global: value, per_role: fc.dictionary(fc.constantFrom('r0', 'r1', 'ir0', 'guest'), value, { maxKeys: 2 }) });

const apiLimits = fc
  .record(
    {
      rate_limit: limit(
        fc.record(
          {
            max_reqs_per_min: fc.integer({ min: 1000, max: 100000 }),
            unique_params: fc.constantFrom<Json>('IP', ['x-engine-user-id'], ['x-engine-user-id', 'x-engine-org']),
          },
          { requiredKeys: ['max_reqs_per_min'] },
        ),
      ),
      depth_limit: limit(fc.integer({ min: 10, max: 100 })),
      node_limit: limit(fc.integer({ min: 100, max: 1000 })),
      time_limit: limit(fc.constantFrom(5, 7.5, 30)),
      batch_limit: limit(fc.integer({ min: 10, max: 50 })),
      disabled: fc.boolean(),
    },
    { requiredKeys: ['disabled'] },
  )
  // No limit and not disabled says nothing: the export leaves it out.
  .map((v) => (Object.keys(v).length === 1 && !v.disabled ? undefined : (v as Record<string, Json>)));

const HOSTS: Record<string, Json>[] = [
  { host: 'localhost', suffix: '8443', permissions: ['self-signed'] },
  { host: 'localhost', suffix: '9443' },
  { host: 'example.org' },
  { host: 'internal.example', permissions: ['self-signed'] },
];

const openTelemetry = fc
  .record(
    {
      status: fc.constantFrom('enabled', 'disabled'),
      data_types: fc.subarray(['traces', 'metrics', 'logs']),
      exporter_otlp: fc.record(
        { otlp_traces_endpoint: fc.constant('http://127.0.0.1:4318/v1/traces'), protocol: fc.constant('http/protobuf') },
        { requiredKeys: [] },
      ),
      batch_span_processor: fc.record({ max_export_batch_size: fc.integer({ min: 1, max: 1024 }) }),
    },
    { requiredKeys: [] },
  )
  .map((v) => (Object.keys(v).length ? (v as Record<string, Json>) : undefined));

/** The top-level parts of a document over its roles, each left out when it says nothing (as the export leaves it out). */
export function topLevelParts(document: Permissioned): fc.Arbitrary<TopLevelParts> {
  const roles = rolesOf(document);
  return fc
    .record({
      inherited: inheritedRoles(roles),
      limits: apiLimits,
      introspection: fc.subarray(['r0', 'r1', 'guest']),
      hosts: fc.subarray(HOSTS),
      metrics: fc.record({ analyze_query_variables: fc.boolean(), analyze_response_body: fc.boolean() }),
      otel: openTelemetry,
      backends: fc.option(fc.constant({ dataconnector: { sqlite: { uri: 'http://127.0.0.1:8100' } } }), { nil: undefined }),
    })
    .map(({ inherited, limits, introspection, hosts, metrics, otel, backends }) => ({
      ...(inherited.length ? { inherited_roles: inherited } : {}),
      ...(limits ? { api_limits: limits } : {}),
      ...(introspection.length ? { graphql_schema_introspection: { disabled_for_roles: introspection } } : {}),
      ...(hosts.length ? { network: { tls_allowlist: hosts } } : {}),
      ...(metrics.analyze_query_variables || metrics.analyze_response_body ? { metrics_config: metrics } : {}),
      ...(otel ? { opentelemetry: otel } : {}),
      ...(backends ? { backend_configs: backends } : {}),
    }));
}

/** Top-level objects the arguments refuse whatever the database holds, and the answer that refuses each. */
export function topLevelRefusals<D extends TopLevelParts>(): {
  kind: string;
  apply: (d: D) => D;
  answer: (d: D) => { path: string; error: string; code: string };
}[] {
  const inherited = (d: D) => d.inherited_roles ?? [];
  const hosts = (d: D) => d.network?.tls_allowlist ?? [];
  return [
    {
      kind: 'two inherited roles that inherit from each other',
      apply: (d: D) => ({
        ...d,
        inherited_roles: [...inherited(d), { role_name: 'cyc_a', role_set: ['cyc_b'] }, { role_name: 'cyc_b', role_set: ['cyc_a'] }],
      }),
      answer: () => ({ path: '$.args', error: 'found cycle(s) in roles: ["cyc_a","cyc_b","cyc_a"]', code: 'cyclic-dependency' }),
    },
    {
      kind: 'a node limit below 0',
      apply: (d: D) => ({ ...d, api_limits: { node_limit: { global: -1, per_role: {} }, disabled: false } }),
      answer: () => ({ path: '$.args.metadata.api_limits.node_limit.global', error: 'expected a number not below 0', code: 'parse-failed' }),
    },
    {
      kind: 'a host twice in the TLS allow-list',
      apply: (d: D) => ({ ...d, network: { tls_allowlist: [...hosts(d), { host: 'twice.example' }, { host: 'twice.example' }] } }),
      answer: (d: D) => ({
        path: `$.args.metadata.network.tls_allowlist[${hosts(d).length + 1}]`,
        error: 'the host "twice.example" already exists in the allowlist',
        code: 'already-exists',
      }),
    },
  ];
}

/** An inherited role whose parent no permission names: kept and reported under allow_inconsistent_metadata. */
export function topLevelInconsistencies<D extends TopLevelParts>(): {
  kind: string;
  apply: (d: D) => D;
  reported: { type: string; name: string; reason: string; definition: Json };
}[] {
  const ghost = { role_name: 'ir_ghost', role_set: ['ghost_role'] };
  return [
    {
      kind: 'an inherited role whose parent no permission names',
      apply: (d: D) => ({ ...d, inherited_roles: [...(d.inherited_roles ?? []), ghost] }),
      reported: {
        type: 'inherited_role',
        name: 'ir_ghost',
        reason: 'the following parent role(s) are not found: ghost_role which are required to construct the inherited role: "ir_ghost"',
        definition: ghost,
      },
    },
  ];
}
