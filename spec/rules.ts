// The numbered and stated rules of SPEC.md, and the decisions taken where it says "not shown".
import type { SpecItem } from './item';

const rule = (id: string, section: string, summary: string): SpecItem => ({ id: `rule.${id}`, section, level: 'spec', summary });
const decision = (id: string, section: string, summary: string, text: string): SpecItem => ({
  id: `dec.${id}`,
  section,
  level: 'compat',
  summary,
  decision: text,
});

export const RULES: readonly SpecItem[] = [
  // §1, §3: what tracking means.
  rule('service.admin-unrestricted', '1', 'the role admin has unrestricted access by default'),
  rule('availability.tracked', '3', 'a table/view or function is available over GraphQL after it is tracked'),
  rule('availability.untracked', '3', 'a table/view or function stops being available after it is untracked'),
  rule('availability.inconsistent', '3', 'inconsistent objects are reported by get_inconsistent_metadata and removed by drop_inconsistent_metadata'),
  // A restart of the target is outside what the suite can do over HTTP and SQL.
  { ...rule('metadata.persisted', '1', 'metadata is stored in a catalog schema of the database and survives a restart'), verifiedBy: 'reference' },

  // §4.2, §9: the request envelope and versions.
  rule('envelope.shape', '4.2', 'the body is {type, version?, args}; type and args are required'),
  rule('envelope.version-inferred', '9', 'when version is omitted it is inferred from the structure of args'),
  rule('envelope.version-explicit', '9', 'an explicit version selects the form of an operation'),
  rule('envelope.metadata-endpoint', '4.2', 'bulk, the function-permission operations and replace_metadata are accepted at /v1/metadata'),

  rule('track_table.constraint-names', '4.3', 'the constraint names of a table must be GraphQL compliant for it to be tracked'),
  rule('track_table.generated-names', '4.3', 'generated root fields and types follow the table name, custom name or identifier'),

  // §4.3 permission semantics.
  rule('perm.insert.check', '4.3', 'insert: the check expression must hold for every new row'),
  rule('perm.insert.columns', '4.3', 'insert is limited to the permitted columns'),
  rule('perm.insert.set', '4.3', 'insert: columns in set are filled from session variables or static values'),
  rule('perm.insert.backend-only', '2.3', 'backend_only inserts need x-engine-use-backend-only-permissions and the admin secret'),
  rule('perm.select.filter', '4.3', 'select: only rows where filter holds are readable'),
  rule('perm.select.columns', '4.3', 'select: only the permitted columns and computed fields are readable'),
  rule('perm.select.limit', '4.3', 'select: limit caps the rows returned for the role'),
  rule('perm.select.aggregations', '4.3', 'select: aggregate queries only when allow_aggregations is true'),
  rule('perm.update.filter', '4.3', 'update: only rows where filter holds can be updated'),
  rule('perm.update.columns', '4.3', 'update: only the permitted columns can be updated'),
  rule('perm.update.check', '4.3', 'update: check must hold for the updated row'),
  rule('perm.update.set', '4.3', 'update: set values are applied on update'),
  rule('perm.delete.filter', '4.3', 'delete: only rows where filter holds can be deleted'),

  // §4.3 replace_metadata, track_function, computed fields; §4.4 function permissions.
  rule('replace_metadata.1', '4.3', 'inconsistencies without allow_inconsistent_metadata: 400 with {internal: [...]}, for v1 and v2'),
  rule('replace_metadata.2', '4.3', 'allow_inconsistent_metadata true: replaced, response carries is_consistent and inconsistent_objects'),
  rule('track_function.1', '4.3', 'without exposed_as, VOLATILE functions go under mutation, others under query'),
  rule('track_function.2', '4.3', 'STABLE or IMMUTABLE functions can only be exposed as queries'),
  rule('track_function.3', '4.3', 'a VOLATILE function may be exposed under query; the caller guarantees it is side-effect free'),
  rule('track_function.4', '4.3', 'only functions returning SETOF <tracked table> or <tracked table> with IN arguments'),
  rule('computed_field.name', '2.3', 'a computed field name must not equal a column, relationship or computed field'),
  rule('computed_field.drop-cascade', '4.3', 'drop_computed_field fails with dependents unless cascade, which drops them too'),
  rule('function_permission.inference-disabled', '4.4', 'pg_create_function_permission needs function permission inference disabled'),
  rule('function_permission.select-permission', '4.4', 'pg_create_function_permission needs select permission on the function\'s table'),

  // §4.5, §2.10: the config API.
  rule('config.admin-only', '4.5', 'GET /v1alpha1/config is admin only and answers 200 application/json'),
  rule('config.fields', '2.10', 'the config object has version, is_function_permissions_inferred, is_admin_secret_set, is_auth_hook_set, is_jwt_set, jwt, is_allow_list_enabled, live_queries'),

  // §4.6: runtime REST endpoints.
  rule('rest.1', '4.6', 'default methods: GET and POST for queries, POST for mutations'),
  rule('rest.2', '4.6', 'variables come from route segments, query parameters and JSON body keys'),
  rule('rest.3', '4.6', 'route variables and query parameters are coerced to the saved query\'s variable types'),
  rule('rest.4', '4.6', 'body values are passed without further validation or coercion'),
  rule('rest.5', '4.6', 'several matching endpoints: status 500'),
  rule('rest.6', '4.6', 'endpoints for the path but not the method: 405 listing the allowed methods'),
  rule('rest.7', '4.6', 'the response equals the saved query executed over GraphQL'),

  // §5: authentication.
  rule('auth.1', '5', 'the metadata and config APIs are admin only; others get access-denied'),
  rule('auth.2', '5', 'Authorization: Bearer is accepted, and optional when a cookie is set'),
  rule('auth.3', '5', 'x-engine-admin-secret carries the admin secret when auth is configured'),
  rule('auth.4', '5', 'X-ENGINE-* session variables come with the request, a webhook or JWT claims'),
  rule('auth.5', '5', 'enabled-apis / ENGINE_GRAPHQL_ENABLED_APIS disables the APIs left out of the list'),

  // §6: events.
  rule('events.1', '6', 'event triggers POST to the webhook on the configured operations; update only for listed columns'),
  rule('events.2', '6', 'failed invocations are retried num_retries times, interval_sec apart; timeout_sec closes the connection'),
  rule('events.3', '6', 'webhook requests carry the configured static and environment headers'),
  rule('events.4', '6', 'cron triggers invoke the webhook on schedule with the payload and retry_conf'),
  rule('events.5', '6', 'cron triggers with include_in_metadata false are not exported'),
];

export const DECISIONS: readonly SpecItem[] = [
  decision('table-name.default-schema', '2.1', 'schema of a bare string TableName', 'A string TableName names a table in schema `public`.'),
  decision('export.form', '2.2', 'the exact export_metadata document',
    'export_metadata answers the config v2 document {"version": 2, "tables": [...]}, other top-level keys only when they have content; a table entry is {"table": {"schema", "name"}}.'),
  decision('success-body', '4.2', 'success body of operations without a stated response',
    'Operations without a stated response answer 200 {"message": "success"}.'),
  decision('endpoints', '4.2', 'which operations each endpoint takes',
    'Every metadata operation is accepted at both /v1/query and /v1/metadata; run_sql at /v1/query and /v2/query only.'),
  decision('replace_metadata.v2-response', '4.3', 'response and status of replace_metadata v2',
    'replace_metadata v2 answers 200 {"is_consistent": bool, "inconsistent_objects": [...]}; v1 answers {"message": "success"}.'),
  decision('reload_metadata.response', '4.3', 'response of reload_metadata',
    'reload_metadata answers 200 {"message": "success", "is_consistent": bool} plus "inconsistent_objects" when inconsistent.'),
  decision('inconsistent-object.table', '2.9', 'the inconsistent object of a missing table',
    'A missing table is {"type": "table", "reason": "no such table/view exists in postgres : \\"<name>\\"", "definition": "<name>"}, the name bare in public and schema.name elsewhere.'),
  decision('run_sql.response', '4.3', 'the answer of run_sql',
    'run_sql answers {"result_type": "TuplesOk", "result": [[header...], [row...]]} for statements returning rows (values as text, SQL NULL as the string "NULL") and {"result_type": "CommandOk", "result": null} otherwise; with several statements, the last one decides.'),
  decision('run_sql.read-only', '4.3', 'run_sql read_only',
    'read_only: true runs the SQL in a read-only transaction; a write is a 400 postgres-error.'),
  decision('run_sql.errors', '4.3', 'run_sql failures',
    'A failing statement answers 400 postgres-error "query execution failed" with an `internal` object carrying the PostgreSQL error fields; nothing of the request is kept.'),
  decision('run_sql.tracked-tables', '4.3', 'run_sql that drops or renames a tracked table',
    'A tracked table that run_sql drops is untracked with it; renaming one is refused with 400 not-supported "table renames are not yet supported : <table>" and the SQL is undone.'),
  decision('bulk.atomic', '4.4', 'bulk all or nothing',
    'bulk runs its operations in one transaction and answers the array of their responses; when one fails, nothing of the bulk is kept and the error carries the failing operation\'s path ($.args[1].args...).'),
  decision('auth.no-secret', '5', 'roles when no admin secret is configured',
    'Without an admin secret, a request without X-Engine-Role is admin; X-Engine-Role selects the role.'),
  decision('auth.admin-secret-role', '5', 'roles with an admin secret',
    'With the right admin secret a request is admin, or acts as the role named by X-Engine-Role.'),
  decision('apis.disabled-404', '5', 'answer of a disabled API',
    'A disabled API answers 404 not-found "No such resource exists", as an unknown path does.'),
  decision('config.jwt', '2.10', 'the jwt field when JWT is not configured',
    'The config object has `jwt` only when JWT is configured; without it the field is absent.'),
  decision('graphql.root-fields', '4.3', 'the GraphQL root fields of a tracked table',
    'A tracked table gives query fields <t>(where, order_by, limit, offset, distinct_on), <t>_by_pk(<pk columns>) and <t>_aggregate {aggregate {count(columns, distinct), sum, avg, max, min, stddev, stddev_pop, stddev_samp, var_pop, var_samp, variance}, nodes}, and mutations insert_<t>(objects, on_conflict), insert_<t>_one(object, on_conflict), update_<t>(where, _set, _inc, _append, _prepend, _delete_key, _delete_elem, _delete_at_path), update_<t>_by_pk(pk_columns, …), delete_<t>(where), delete_<t>_by_pk(<pk columns>); mutation responses are {affected_rows, returning}. Tables outside public are prefixed <schema>_.'),
  decision('graphql.where', '2.1', 'the complete operator list of where',
    'Column operators: _eq _neq _gt _lt _gte _lte _in _nin _is_null; on text types _like _nlike _ilike _nilike _similar _nsimilar _regex _nregex _iregex _niregex; on jsonb _contains _contained_in _has_key _has_keys_any _has_keys_all; combined by _and, _or, _not and by several keys (conjunction); relationships filter by the existence of a matching related row. _and: [] holds, _or: [] does not; _in: [] holds for no row and _nin: [] for every row, nulls included.'),
  decision('graphql.null-comparison', '2.1', 'comparisons with null',
    'A comparison with a null operand (_eq: null) follows SQL and matches no row; _is_null tests for null.'),
  decision('graphql.order-by', '4.3', 'order_by',
    'order_by takes asc, desc and their _nulls_first/_nulls_last forms (asc puts nulls last, desc first), through object relationships and array relationship aggregates; distinct_on keeps the first row of each distinct value in that order.'),
  decision('graphql.errors', '7', 'GraphQL errors',
    'GraphQL errors answer 200 {"errors": [{"message", "extensions": {"path", "code"}}]}: validation-failed for documents the schema refuses, postgres-error for a not-null violation ("Not-NULL violation. null value in column \"c\" violates not-null constraint"), constraint-violation for unique, foreign key and check violations.'),
  decision('graphql.mutations-atomic', '4.3', 'several mutation fields in one request',
    'The root fields of a mutation run in order in one transaction: when one fails, none is kept.'),
  decision('graphql.enum-tables', '2.3', 'enum tables in the GraphQL schema',
    'The rows of an enum table become the GraphQL enum <t>_enum (descriptions from the comment column); columns with a foreign key to it take that type.'),
  decision('graphql.roles-without-permissions', '4.3', 'the schema of a role without permissions',
    'A role without permissions sees no table: its query root has only no_queries_available.'),
  decision('graphql.subscriptions', '1.2', 'subscriptions',
    'Subscriptions are served at /v1/graphql over WebSocket with the graphql-transport-ws protocol; the subscription root has the fields of the query root for the role. A subscription is a live query: its first result is sent at once, then a new result each time the result changes, checked every refetch interval (ENGINE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL, default 1 s); a result equal to the last one sent is not sent again. Queries and mutations over the socket are answered once and completed. Credentials are the headers in the connection_init payload (`{"headers": {...}}`), over those of the upgrade request; a connection whose credentials are refused is closed with code 4403. An operation that does not validate gets an error message with extensions.code. When metadata changes, running subscriptions are compiled again; one that no longer validates, or whose statement fails, is sent a result with errors and completed.'),
  decision('boolexp.exists', '2.1', '_exists in permission expressions',
    'A permission expression may hold {_exists: {_table: <tracked table>, _where: <BoolExp on it>}}: true when some row of that table satisfies _where (session variables allowed).'),
  decision('http.content-type', '4.2', 'content types of request bodies',
    'A POST body to /v1/query, /v1/metadata, /v2/query or /v1/graphql from a browser (a request with an Origin or Sec-Fetch-Site header) must have Content-Type application/json (or +json), or none; another type is refused with 415 {"path": "$", "error": "expected Content-Type: application/json, got <type>", "code": "unsupported-media-type"} and nothing runs. Other clients (curl -d, a script\'s fetch) may send any type whose body is JSON, as the engine this API comes from takes them.'),
  decision('http.cross-origin', '5', 'requests from other origins (CORS)',
    'ENGINE_GRAPHQL_CORS_DOMAIN lists the origins allowed besides the server\'s own (scheme, host with an optional leading *. wildcard that excludes the bare domain, optional port; `*` for any). Unset, it is `*` for GraphQL when an admin secret is set, and no other origin otherwise. The admin APIs (metadata, query, config) take their own origin and origins listed explicitly, never `*`. A request whose Origin is not allowed is refused with 403 {"path": "$", "error": "the origin <origin> is not allowed by the CORS policy", "code": "access-denied"} before anything runs; an allowed one gets Access-Control-Allow-Origin (the origin), Access-Control-Allow-Credentials: true and Vary: Origin; a preflight (OPTIONS) of an allowed origin answers 204 with the allowed methods and the requested headers.'),
  decision('graphql.get-mutation', '4.1', 'GraphQL over GET',
    'GET /v1/graphql runs queries (query, variables and operationName as URL parameters); a mutation over GET is refused with 405, header Allow: POST, and nothing runs.'),
  // Where a server listens is seen from its start-up, not over HTTP.
  {
    ...decision('server.listen-host', '5', 'the address the server listens on',
      'Without ENGINE_GRAPHQL_SERVER_HOST the server listens on 127.0.0.1 when no admin secret is set (every request is admin then) and warns; on 0.0.0.0 with an admin secret.'),
    verifiedBy: 'reference',
  },
  decision('limits.json-depth', '8', 'how deep a request body may nest',
    'SPEC.md §8 shows no size limits. A JSON body nested deeper than ENGINE_GRAPHQL_MAX_JSON_DEPTH (default 128) is refused before anything runs (err.parse-failed.too-deep), on every API; the engine never fails with 500 on deep input.'),
  decision('limits.graphql-operation', '8', 'how large, deep and wide a GraphQL operation may be',
    'A GraphQL document is at most ENGINE_GRAPHQL_MAX_DOCUMENT_BYTES and nests at most ENGINE_GRAPHQL_MAX_JSON_DEPTH brackets or fragment spreads, for every role; an operation of a role other than admin selects at most ENGINE_GRAPHQL_MAX_QUERY_DEPTH levels and ENGINE_GRAPHQL_MAX_QUERY_FIELDS fields. Each refusal is a GraphQL error with code validation-failed and nothing runs.'),
  decision('limits.statement-timeout', '8', 'how long the SQL of a request may run',
    'The SQL of a role other than admin is cancelled after ENGINE_GRAPHQL_STATEMENT_TIMEOUT_MS (default 30 s), answering a GraphQL error with code timeout; admin requests have no timeout.'),
  decision('healthz', '4.1', 'health endpoint', 'GET /healthz answers 200 "OK" while the database answers.'),
  decision('delete-permission.filter', '2.3', 'requiredness of DeletePermission fields', 'DeletePermission.filter is required.'),
];
