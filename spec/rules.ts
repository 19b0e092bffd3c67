// The numbered and stated rules of SPEC.md, and the decisions taken where it says "not shown".
import type { SpecItem } from './item';

const rule = (id: string, section: string, summary: string, sides?: SpecItem['sides']): SpecItem => ({
  id: `rule.${id}`,
  section,
  level: 'spec',
  summary,
  ...(sides ? { sides } : {}),
});
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
  rule('envelope.shape', '4.2', 'the body is {type, version?, args}; type and args are required', {
    allowed: 'a body with type and args, with or without version, is taken',
    refused: 'a body without type or args, or not an object, is refused',
  }),
  rule('envelope.version-inferred', '9', 'when version is omitted it is inferred from the structure of args'),
  rule('envelope.version-explicit', '9', 'an explicit version selects the form of an operation'),
  rule('envelope.metadata-endpoint', '4.2', 'bulk, the function-permission operations and replace_metadata are accepted at /v1/metadata'),

  rule('track_table.constraint-names', '4.3', 'the constraint names of a table must be GraphQL compliant for it to be tracked', {
    allowed: 'a table whose constraint names are GraphQL names is tracked',
    refused: 'a table with a constraint name that is not a GraphQL name is refused',
  }),
  rule('track_table.generated-names', '4.3', 'generated root fields and types follow the table name, custom name or identifier'),

  // §4.3 permission semantics.
  rule('perm.insert.check', '4.3', 'insert: the check expression must hold for every new row', {
    allowed: 'rows satisfying the check are inserted',
    refused: 'an insert with a row failing the check is refused and inserts nothing',
  }),
  rule('perm.insert.columns', '4.3', 'insert is limited to the permitted columns', {
    allowed: 'values for permitted columns are inserted',
    refused: 'a value for another column is refused',
  }),
  rule('perm.insert.set', '4.3', 'insert: columns in set are filled from session variables or static values'),
  rule('perm.insert.backend-only', '2.3', 'backend_only inserts need x-engine-use-backend-only-permissions and the admin secret', {
    allowed: 'with the header and the admin secret the insert runs',
    refused: 'without the header, or without the admin secret, the insert is not there',
  }),
  rule('perm.select.filter', '4.3', 'select: only rows where filter holds are readable', {
    allowed: 'rows where the filter holds are read',
    refused: 'rows where it does not hold are never seen',
  }),
  rule('perm.select.columns', '4.3', 'select: only the permitted columns and computed fields are readable', {
    allowed: 'permitted columns are read',
    refused: 'another column is refused',
  }),
  rule('perm.select.limit', '4.3', 'select: limit caps the rows returned for the role'),
  rule('perm.select.aggregations', '4.3', 'select: aggregate queries only when allow_aggregations is true', {
    allowed: 'with allow_aggregations aggregates answer',
    refused: 'without it the aggregate field is refused',
  }),
  rule('perm.update.filter', '4.3', 'update: only rows where filter holds can be updated', {
    allowed: 'rows where the filter holds are updated',
    refused: 'other rows are left unchanged',
  }),
  rule('perm.update.columns', '4.3', 'update: only the permitted columns can be updated', {
    allowed: 'permitted columns are updated',
    refused: 'a value for another column is refused',
  }),
  rule('perm.update.check', '4.3', 'update: check must hold for the updated row', {
    allowed: 'an update whose rows satisfy the check is applied',
    refused: 'an update with a row failing the check is refused and changes nothing',
  }),
  rule('perm.update.set', '4.3', 'update: set values are applied on update'),
  rule('perm.delete.filter', '4.3', 'delete: only rows where filter holds can be deleted', {
    allowed: 'rows where the filter holds are deleted',
    refused: 'other rows are kept',
  }),

  // §4.3 replace_metadata, track_function, computed fields; §4.4 function permissions.
  rule('replace_metadata.1', '4.3', 'inconsistencies without allow_inconsistent_metadata: 400 with {internal: [...]}, for v1 and v2'),
  rule('replace_metadata.2', '4.3', 'allow_inconsistent_metadata true: replaced, response carries is_consistent and inconsistent_objects'),
  rule('track_function.1', '4.3', 'without exposed_as, VOLATILE functions go under mutation, others under query'),
  rule('track_function.2', '4.3', 'STABLE or IMMUTABLE functions can only be exposed as queries', {
    allowed: 'a STABLE function is exposed as a query',
    refused: 'a STABLE function as a mutation is refused',
  }),
  rule('track_function.3', '4.3', 'a VOLATILE function may be exposed under query; the caller guarantees it is side-effect free'),
  rule('track_function.4', '4.3', 'only functions returning SETOF <tracked table> or <tracked table> with IN arguments', {
    allowed: 'a function returning rows of a tracked table with IN arguments is tracked',
    refused: 'other return types, untracked tables and other arguments are refused',
  }),
  rule('computed_field.name', '2.3', 'a computed field name must not equal a column, relationship or computed field', {
    allowed: 'a computed field with a free name is added',
    refused: 'a name taken by a column, relationship or computed field is refused',
  }),
  rule('computed_field.drop-cascade', '4.3', 'drop_computed_field fails with dependents unless cascade, which drops them too', {
    allowed: 'with cascade the field and its dependents are dropped',
    refused: 'without cascade a field with dependents is kept and the drop refused',
  }),
  rule('function_permission.inference-disabled', '4.4', 'pg_create_function_permission needs function permission inference disabled', {
    allowed: 'with inference disabled a function permission is created',
    refused: 'with inference on it is refused',
  }),
  rule('function_permission.select-permission', '4.4', "pg_create_function_permission needs select permission on the function's table", {
    allowed: 'a role with the select permission gets the function permission',
    refused: 'a role without it is refused',
  }),

  // §4.5, §2.10: the config API.
  rule('config.admin-only', '4.5', 'GET /v1alpha1/config is admin only and answers 200 application/json', {
    allowed: 'admin gets the configuration',
    refused: 'another role is refused',
  }),
  rule(
    'config.fields',
    '2.10',
    'the config object has version, is_function_permissions_inferred, is_admin_secret_set, is_auth_hook_set, is_jwt_set, jwt, is_allow_list_enabled, live_queries',
  ),

  // §4.6: runtime REST endpoints.
  rule('rest.1', '4.6', 'default methods: GET and POST for queries, POST for mutations'),
  rule('rest.2', '4.6', 'variables come from route segments, query parameters and JSON body keys'),
  rule('rest.3', '4.6', "route variables and query parameters are coerced to the saved query's variable types"),
  rule('rest.4', '4.6', 'body values are passed without further validation or coercion'),
  rule('rest.5', '4.6', 'several matching endpoints: status 500'),
  rule('rest.6', '4.6', 'endpoints for the path but not the method: 405 listing the allowed methods', {
    allowed: 'an allowed method is served',
    refused: 'another method answers 405 with Allow',
  }),
  rule('rest.7', '4.6', 'the response equals the saved query executed over GraphQL'),

  // §5: authentication.
  rule('auth.1', '5', 'the metadata and config APIs are admin only; others get access-denied', {
    allowed: 'admin is served',
    refused: 'another role gets access-denied',
  }),
  rule('auth.2', '5', 'Authorization: Bearer is accepted, and optional when a cookie is set'),
  rule('auth.3', '5', 'x-engine-admin-secret carries the admin secret when auth is configured', {
    allowed: 'the right secret is admin',
    refused: 'a wrong or missing secret is refused',
  }),
  rule('auth.4', '5', 'X-ENGINE-* session variables come with the request, a webhook or JWT claims'),
  rule('auth.5', '5', 'enabled-apis / ENGINE_GRAPHQL_ENABLED_APIS disables the APIs left out of the list', {
    allowed: 'the listed APIs are served',
    refused: 'the APIs left out answer 404',
  }),

  // §6: events.
  rule('events.1', '6', 'event triggers POST to the webhook on the configured operations; update only for listed columns'),
  rule('events.2', '6', 'failed invocations are retried num_retries times, interval_sec apart; timeout_sec closes the connection'),
  rule('events.3', '6', 'webhook requests carry the configured static and environment headers'),
  rule('events.4', '6', 'cron triggers invoke the webhook on schedule with the payload and retry_conf'),
  rule('events.5', '6', 'cron triggers with include_in_metadata false are not exported'),
];

export const DECISIONS: readonly SpecItem[] = [
  decision('table-name.default-schema', '2.1', 'schema of a bare string TableName', 'A string TableName names a table in schema `public`.'),
  decision(
    'export.form',
    '2.2',
    'the exact export_metadata document',
    'export_metadata answers the config v2 document {"version": 2, "tables": [...]}, other top-level keys only when they have content; a table entry is {"table": {"schema", "name"}}.',
  ),
  decision(
    'success-body',
    '4.2',
    'success body of operations without a stated response',
    'Operations without a stated response answer 200 {"message": "success"}.',
  ),
  decision(
    'permission.session-lists',
    '2.1',
    'session variables holding lists',
    'In a permission, `_in`, `_nin`, `_has_keys_any` and `_has_keys_all` may take the name of a session variable instead of a list. Its value is a PostgreSQL array literal ({1,2,3}, {"a b",c}, NULL for null) or a JSON array of scalars, each element typed by the column; a value that is neither is refused with invalid-headers "<Header> should be a list such as {1,2,3} or [1,2,3]", and elements that do not fit an integer column with "<Header> should be a list of integers".',
  ),
  decision(
    'graphql.introspection-order',
    '4.3',
    'the order of fields and enum values in introspection',
    "Introspection lists the fields of a table's object type (columns, computed fields, relationships and their aggregates) sorted by name, and the values of an enum table's enum sorted by name, as the engine does; the order of an answer's fields is always the order of the request's selection.",
  ),
  decision(
    'computed_fields.permissions',
    '2.3',
    'which roles see a computed field',
    "A scalar computed field is a field of a role's type when the role's select permission lists it in computed_fields. A table-returning one is never listed there (400 not-supported, err.not-supported.computed-field-permission): a role sees it whenever it may select from the table it belongs to and from the table it returns, and the rows it returns pass through the role's permission on that table, as the engine derives them.",
  ),
  decision(
    'permission.column-comparison',
    '2.1',
    'column comparison operators in a BoolExp',
    'A BoolExp may compare a column with another column with _ceq, _cne (_cneq), _cgt, _clt, _cgte and _clte: the operand is the other column\'s name (a column of the same row, also inside a relationship), or ["$", column] for a column of the root table of the expression (the table of the permission or query), as the engine allows; ["column"] is the same row\'s. A column the table does not have is 400 not-exists "no such column exists : \"<column>\""; columns of different types are 400 unexpected-payload.',
  ),
  decision(
    'schema.always-valid',
    '4.3',
    "accepted metadata keeps every role's schema valid",
    'Metadata the server accepts never leaves a role without a working GraphQL schema. After every change and every reload the schemas of admin, of each role a permission names and of any other role are built and validated; an object that keeps one from being valid is an inconsistent object: an enum table whose values are no GraphQL enum value names, or that has no rows (type table, its {schema, name}, reason "the table \"s.t\" cannot be used as an enum because …"), or the object whose removal makes the schema valid (reason "the GraphQL schema would not be valid: <validation message>"); a change that brings one is refused with the 400 of inconsistent metadata unless allow_inconsistent_metadata keeps it, reload_metadata and get_inconsistent_metadata report it, the rest is served without it, and drop_inconsistent_metadata removes it. Besides: a select permission of no columns lets the role read nothing of the table (as if it had none); a role may insert into a table it cannot read (insert_<table> answers affected_rows only, no returning, no insert_<table>_one); an insert permission whose presets set every column it may insert takes objects whose input has the one ignored field _PLACEHOLDER; an update permission whose presets set every column it may update has no _set and an update with no operator applies the presets.',
  ),
  decision(
    'envelope.extra-keys',
    '4.2',
    'other keys of the envelope',
    'Keys of a request envelope other than type, version, args (and resource_version at the top) are ignored, as the engine this API comes from ignores them: scripts send `cascade` or `source` beside `args`. Unknown keys inside `args` are still refused.',
  ),
  decision(
    'graphql.v1alpha1',
    '4.1',
    'the older GraphQL path',
    '/v1alpha1/graphql is another path of /v1/graphql: POST, GET and the WebSocket protocol answer there exactly as at /v1/graphql.',
  ),
  decision(
    'metadata.source-prefixed',
    '4.2',
    'source-prefixed operation forms',
    'At /v1/metadata every table, relationship, permission, function and computed-field operation is also taken in its source-prefixed form (pg_track_table, pg_create_select_permission, …), with the same arguments; it does what the plain operation does. Every operation that names a table takes an optional `source` (default `default`); a name that is no source is refused with 400 not-exists `source with name "<name>" does not exist` at $.args, changing nothing (dec.source.forms).',
  ),
  decision(
    'endpoints',
    '4.2',
    'which operations each endpoint takes',
    'Every metadata operation is accepted at both /v1/query and /v1/metadata; run_sql at /v1/query and /v2/query only.',
  ),
  decision(
    'catalog-state',
    '4.3',
    'the state the server keeps for its tools',
    'Beside the metadata the server keeps two JSON values for its tools, as the engine keeps them in its catalog: the CLI\'s state (where the engine\'s CLI records the migrations it applied: {"settings": {"migration_mode": "true"}, "migrations": {"<database>": {"<version>": <dirty>}}, "isStateCopyCompleted": <bool>}) and the console\'s, each {} at first. get_catalog_state {} answers {"id": "<the catalog\'s uuid>", "cli_state", "console_state"}; set_catalog_state {"type": "cli" | "console", "state": <any JSON value>} replaces one whole and answers {"message": "success"}. Neither is metadata: the resource version stays, clear_metadata keeps them, export_metadata does not show them; in a bulk, set_catalog_state commits with the rest or not at all.',
  ),
  decision(
    'replace_metadata.v2-response',
    '4.3',
    'response and status of replace_metadata v2',
    'replace_metadata v2 answers 200 {"is_consistent": bool, "inconsistent_objects": [...]}; v1 answers {"message": "success"}.',
  ),
  decision(
    'reload_metadata.response',
    '4.3',
    'response of reload_metadata',
    'reload_metadata answers 200 {"message": "success", "is_consistent": bool} plus "inconsistent_objects" when inconsistent.',
  ),
  decision(
    'inconsistent-object.table',
    '2.9',
    'the inconsistent object of a missing table',
    'A missing table is {"type": "table", "reason": "no such table/view exists in postgres : \\"<name>\\"", "definition": "<name>"}, the name bare in public and schema.name elsewhere.',
  ),
  decision(
    'run_sql.response',
    '4.3',
    'the answer of run_sql',
    'run_sql answers {"result_type": "TuplesOk", "result": [[header...], [row...]]} for statements returning rows (values as text, SQL NULL as the string "NULL") and {"result_type": "CommandOk", "result": null} otherwise; with several statements, the last one decides.',
  ),
  decision('run_sql.read-only', '4.3', 'run_sql read_only', 'read_only: true runs the SQL in a read-only transaction; a write is a 400 postgres-error.'),
  {
    ...decision(
      'run_sql.standard-strings',
      '4.3',
      'how run_sql reads string literals',
      "run_sql's text is read with standard_conforming_strings on (a backslash in '…' is an ordinary character), whatever the database's default, so that the check for transaction control and PostgreSQL read the text alike; E'…' strings take escapes as always.",
    ),
    verifiedBy: 'reference' as const,
  },
  decision(
    'run_sql.errors',
    '4.3',
    'run_sql failures',
    'A failing statement answers 400 postgres-error "query execution failed" with an `internal` object carrying the PostgreSQL error fields; nothing of the request is kept.',
  ),
  decision(
    'run_sql.tracked-tables',
    '4.3',
    'run_sql that changes tracked tables and their columns',
    'A tracked table that run_sql drops is untracked with it (tables dropped together may relate to each other); renaming one is refused with 400 not-supported "table renames are not yet supported : <table>" and the SQL is undone. ' +
      'A column that metadata names (permission columns, presets, filters and checks also through relationships, relationship mappings, custom names): renaming it is 400 not-supported "column renames are not yet supported : \"<schema>.<table>\".\"<column>\"", changing its type 400 dependency-error "cannot change type of column \"<column>\" in table \"<schema>.<table>\" because of the following dependencies : …", dropping it 400 dependency-error "cannot drop due to the following dependent objects : …", dependents named like "permission <schema>.<table>.<role>.<type>"; with cascade: true the SQL is kept and the dependents are dropped. Columns nothing names change freely.',
  ),
  decision(
    'dml.roles',
    '5',
    'legacy DML sent by a role other than admin',
    'At /v1/query and /v2/query a role other than admin may send select, insert, update, delete and count (and bulks of only these), as the engine allows: the role\'s permissions apply as in GraphQL (rows of its filters, also through relationships and _exists; its columns, presets, checks and limit). Refusals use §7.2: 400 permission-denied "select on \"<schema>.<table>\" for role \"<role>\" is not allowed." for a table it may not read, "<type> on \"<schema>.<table>\" for role \"<role>\" is not allowed" for a write it may not make, "role \"<role>\" does not have permission to <type> column \"<column>\"" for a column, 400 unexpected-payload "upsert is not allowed for role \"<role>\"" for on_conflict update without an update permission, and 400 permission-error when a changed row fails the check. Any other operation, and anything at /v1/metadata, stays admin only.',
  ),
  decision(
    'functions.graphql',
    '4.3',
    'the GraphQL fields of a tracked function',
    "A tracked function is the root field <name> (its custom_name, else its name, prefixed with <schema>_ outside public) taking args: <name>_args (its IN arguments other than the session argument, unnamed ones as arg_<n>, required unless they have a default), where, order_by, limit, offset and distinct_on of its table, and answering [<table>!]!, also for a function returning one row; <name>_aggregate beside it when the role may aggregate the table. Rows come through the role's select permission on the table. The session argument receives the session variables as JSON, x-engine-role included.",
  ),
  decision(
    'function_permission.replace-metadata',
    '4.4',
    'function permissions that replace_metadata brings',
    "replace_metadata keeps a function permission whatever the role may select, as the engine does (it checks the select permission only in pg_create_function_permission): a role without select permission on the function's table does not see the function, and sees it once it gets one. The document stays consistent; the permission is exported as given.",
  ),
  decision(
    'functions.run_sql',
    '4.3',
    'run_sql that drops or changes a tracked function',
    'run_sql that drops, renames or changes past what can be tracked a function that is tracked or that a computed field uses is refused with 400 dependency-error "cannot drop due to the following dependent objects : <dependents>" (dependents named like "function <schema>.<name>" and "computed field <schema>.<table>.<field>"), and one that overloads such a function with 400 not-supported (err.not-supported.function-overloaded), the SQL undone either way; with cascade: true the SQL is kept and the function is untracked, the computed field dropped from its table.',
  ),
  decision(
    'run_sql.consistency',
    '4.3',
    'run_sql that would leave the metadata inconsistent',
    "After run_sql's SQL (not read_only) the metadata, as run_sql left it, is checked against the database the SQL made, in the request's transaction, when check_metadata_consistency is true, or when it is not given and the SQL has a statement other than a query or a row change (SELECT, INSERT, UPDATE, DELETE, MERGE, VALUES, TABLE; read by PostgreSQL's parser), as the engine decides; check_metadata_consistency false skips the check. An object inconsistent after the SQL that was not before (a column no GraphQL schema can have, an enum table whose values are no GraphQL names, two types of one name) refuses the request with 400 unexpected \"cannot continue due to new inconsistent metadata\" at $, `internal` listing those objects, and the SQL is undone. What was inconsistent before, and SQL that is not checked, is reported by get_inconsistent_metadata and reload_metadata.",
  ),
  decision(
    'run_sql.recreated-objects',
    '4.3',
    'GraphQL after run_sql drops objects and makes them again',
    'Tables, types and functions that run_sql (or SQL outside the service, followed by reload_metadata) drops and makes again under the same names are answered from as they are now, on this server and on every other server of the database: nothing prepared or cached for the old objects is used again. A statement that PostgreSQL refuses because an object it was prepared for changed (SQLSTATE 0A000 "cached plan must not change result type", XX000 "cache lookup failed …") is prepared again and run once more on another connection before anything is answered.',
  ),
  decision(
    'computed_fields.graphql',
    '2.3',
    'the GraphQL field of a computed field',
    "A scalar computed field is a nullable field of the table's type, taking args: <table>_<field>_args when its function has arguments besides the row and the session; without required arguments it can be compared in where and ordered by. A table-returning one answers [<table>!]! and takes args, where, order_by, limit, offset and distinct_on of the returned table.",
  ),
  decision(
    'allowlist',
    '2.2',
    'the allow-list at run time',
    'With ENGINE_GRAPHQL_ENABLE_ALLOWLIST true, a GraphQL request of a role other than admin (over HTTP or WebSocket) runs only when its document, with layout, comments and __typename fields normalised away (clients add __typename on their own; the engine strips it too), equals a query of a collection in the allow-list; otherwise the GraphQL error "query is not in any of the allowlists" (validation-failed). Admin is not bound; the queries of REST endpoints run whatever the allow-list says.',
  ),
  decision(
    'rest.variables',
    '4.6',
    'where REST variables come from, and which wins',
    "Variables are the JSON body's keys as they are, then the query parameters of declared variables (a repeated parameter is a list), then the route segments, each later source overriding an earlier one; route and query-string values of Int, Float and Boolean variables must parse (400 parse-failed otherwise), other types take the text. Paths without an endpoint answer 404 not-found.",
  ),
  decision(
    'remote-schema.defaults',
    '2.4',
    'defaults of a remote schema, and its export form',
    'forward_client_headers defaults to false and timeout_seconds to 60 (at least 1); the export form writes both, and headers and customization only when there are some. Adding a remote schema introspects it at once; its root fields join query_root and mutation_root (not subscription_root) and its types join the schema under their own names. An unreachable remote at start-up or reload becomes an inconsistent object of type remote_schema {type, reason, definition: the remote schema}; the server serves everything else.',
  ),
  decision(
    'remote-schema.valid-schema',
    '4.3',
    'a remote whose own schema is not valid GraphQL',
    'A remote\'s introspected schema must be valid GraphQL. An object type that does not implement an interface it names is refused in the engine\'s words: Interface field \'<Interface>\'."<field>" expected, but \'<Object>\' does not provide it; The type of Object field \'<Object>\'."<field>" (<type>) is not the same type/sub type of Interface field \'<Interface>\'."<field>" (<type>); Interface field argument \'<Interface>\'."<field>"("<arg>":) required, but Object field \'<Object>\'."<field>" does not provide it; Interface field argument \'<Interface>\'."<field>"("<arg>":) expects type <type>, but \'<Object>\'."<field>"("<arg>":) has type <type>; Object field argument \'<Object>\'."<field>"("<arg>":) is of required type <type>, but is not provided by Interface field \'<Interface>\'."<field>" (a field\'s type may be a subtype of the interface\'s, as graphql-js allows); anything else graphql-js\'s validation refuses, in its words. add_remote_schema and reload_remote_schema answer 400 remote-schema-error "the remote schema <name> cannot be used: <reason>" and change nothing; a stored remote that became invalid (at start-up, on reload_metadata with reload_remote_schemas, when another server changed the metadata) is an inconsistent object of type remote_schema with that reason, left out of every schema. When a role\'s schema is still not valid with the remote schemas and actions beside the tables (a remote schema permission, a clash no rule names), the newest remote schema, else the actions, whose removal makes it valid is left out as an inconsistent remote_schema (or action) with the validation\'s message: a change that brings it is refused (400 unexpected), never served as a 500.',
  ),
  decision(
    'remote-schema.headers',
    '2.4',
    'the headers a remote schema receives',
    "A request to a remote schema carries the client's headers when forward_client_headers is true (never connection headers, content headers, X-Engine-* headers or the admin secret), then the configured headers (value or value_from_env), which win, then X-Engine-Role and the session variables as X-Engine-* headers. Each remote gets one request per GraphQL request with its root fields (aliases kept), the fragments and the variables they use, and the operation's name.",
  ),
  decision(
    'remote-schema.roles',
    '2.4',
    'which roles see a remote schema',
    "While ENGINE_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS is false (the default), every role sees every consistent remote schema in full and the remote receives the role and session variables to decide for itself; permissions in the metadata are kept and exported but not applied. When it is true, admin sees every remote schema in full and any other role only the remote schemas it has a permission on, as that permission's SDL says (see dec.remote-schema.permissions).",
  ),
  decision(
    'remote-schema.customization',
    '2.4',
    "new names for a remote schema's root fields, types and fields",
    "definition.customization {root_fields_namespace, type_names {prefix, suffix, mapping}, field_names [{parent_type, prefix, suffix, mapping}]} renames what a remote brings into the engine's schema: a type becomes type_names.mapping[name] when there is one, else prefix + name + suffix (every type but the built-in scalars, and but the root types unless there is a namespace); a field of the object or interface type parent_type (its name in the remote) becomes mapping[field], else prefix + field + suffix (root fields: parent_type is the remote's root type). With root_fields_namespace the remote's root fields move under one field of that name in query_root (and mutation_root), of the remote's root type, named <namespace><root type name> unless type_names.mapping names it; that field is non-null. Names must be GraphQL names (400 parse-failed); a customization that gives two types or two fields of a type one name makes the remote unusable (remote-schema-error, nothing changes). Requests are sent to the remote in its own names (renamed fields aliased to the name the client asked for) and __typename answers in the engine's; each namespace field of an operation is one request to the remote, and the remote's errors get its alias at the head of their path. Role permissions are written in the remote's own names and customized like the whole.",
  ),
  decision(
    'graphql.object-relationship-nullability',
    '4.3',
    'when an object relationship is non-null',
    "An array relationship's field is [T!]! and its aggregate T_aggregate!. An object relationship's field is T! when it follows a foreign key of the table whose columns are all NOT NULL, as the engine types it, and T otherwise (a nullable column, a manual_configuration). For a role whose select permission on the target has a filter other than {}, the field is T: the row the key leads to may be one the role does not see, and a non-null field must never answer null (the engine keeps T! there and answers null).",
  ),
  decision(
    'graphql.enum-column-operators',
    '4.3',
    'what a column typed by an enum table is compared and aggregated with',
    "A column that references an enum table (and so has the enum's type) is compared with <enum>_comparison_exp: _eq, _neq, _in, _nin and _is_null only, as the engine does (no ordering, text or json operators), and has no field in the max and min aggregates or their order_by.",
  ),
  decision(
    'graphql.descriptions',
    '4.3',
    'the descriptions of the generated schema',
    'The generated types, fields, arguments and enum values carry the engine\'s descriptions: a table\'s object type its comment or `columns and relationships of "<table>"` (the table named "name" in the public schema and "schema.name" elsewhere), relationships `An object relationship` / `An array relationship` / `An aggregate relationship`, a computed field its comment or `A computed field, executes function "<function>"`, the select arguments (`distinct select on columns`, `limit the number of rows returned`, `skip the first n rows. Use only with order_by`, `sort the rows by one or more columns`, `filter the rows returned`), the root fields (`fetch data from the table: "<table>"`, `insert data into the table: "<table>"`, …), the aggregate, order_by, bool_exp, comparison, mutation input, on_conflict, constraint (`unique or primary key constraint on columns "<column>", …`) and select/update column types (values `column name`), the comparison operators that the engine describes, the update operators, mutation_root (`mutation root`) and the mutation response\'s fields; columns keep their comments in every type that lists them, except <table>_order_by and the column enums. The function root fields and computed fields of a function with a comment: the comment, two empty lines, then the generated text.',
  ),
  decision(
    'graphql.aggregate-predicates',
    '2.1',
    'aggregate predicates in boolean expressions',
    "A table's <table>_bool_exp has, for each array relationship whose target the role may aggregate (allow_aggregations), a field <relationship>_aggregate of type <target>_aggregate_bool_exp: {count: {arguments: [<target>_select_column!], distinct: Boolean, filter: <target>_bool_exp, predicate: Int_comparison_exp!}, bool_and and bool_or (where the target has boolean columns the role reads): {arguments: <target>_select_column_<target>_aggregate_bool_exp_bool_and_arguments_columns!, distinct, filter, predicate: Boolean_comparison_exp!}}, as the engine names them. It holds for a row when the function over its related rows that the role reads and filter keeps (count(*), count of the columns' non-null values, of distinct ones with distinct; bool_and/bool_or of the column, null over no rows) satisfies predicate. Exactly one function per <relationship>_aggregate (else validation-failed `exactly one predicate should be specified`). Permissions take the same form in the metadata's BoolExp (arguments by column name; bool_and and bool_or one column), checked when the permission is made.",
  ),
  decision(
    'run_sql.session',
    '4.3',
    "what run_sql's text leaves in its session",
    'What a run_sql text leaves in its database session (a setting made with SET or set_config(…, false) such as search_path, a temporary table, a PREPARE, a LISTEN, an advisory lock, a cursor WITH HOLD) holds for the rest of its request (the later members of a bulk see it) and reaches no other request: the next request, run_sql or GraphQL, starts from the session as the server opened it, whether the run_sql came alone or in a bulk, and whether it was read_only.',
  ),
  decision(
    'run_sql.text-settings',
    '4.3',
    "run_sql's text read as its check reads it",
    "Every run_sql text runs with standard_conforming_strings on and client_encoding UTF8, set in its transaction before it and again after it, whatever an earlier run_sql of the request set: PostgreSQL reads the text exactly as the transaction-control check does (dec.run_sql.standard-strings), on the server's own database and on a source. A SET in a text changes nothing of how that text is read (PostgreSQL parses a text whole before running it).",
  ),
  decision(
    'remote-schema.outside-the-lock',
    '4.3',
    'introspecting a remote does not hold other metadata requests',
    "A metadata request introspects the remote schemas it needs (add_remote_schema, update_remote_schema, reload_remote_schema, reload_metadata with reload_remote_schemas, replace_metadata's remotes) before it takes the lock every metadata change holds: while a remote is slow, up to its timeout_seconds, other metadata requests, exports and run_sql are answered. Under the lock the request takes what it introspected when the definition is still the same, and introspects again only what changed meanwhile. When its client goes away the introspection stops (the remote's request is closed) and the request changes nothing.",
  ),
  {
    ...decision(
      'limits.remote-answers',
      '8',
      "the bytes of remote schemas' answers a request and a role may hold",
      "Each answer of a remote schema is read up to 64 MiB; all the answers one GraphQL request gathers from remote schemas (root fields and remote relationships) together up to ENGINE_GRAPHQL_REMOTE_ANSWER_MAX_BYTES (64 MiB), and those of one role's requests in flight together (a share, as dec.limits.role-share counts it) up to ENGINE_GRAPHQL_REMOTE_ANSWER_ROLE_MAX_BYTES (256 MiB). An answer past a bound stops being read and its field fails with err.graphql.remote-failed, naming the bound; the bytes are given back when the request's answer is made.",
    ),
    verifiedBy: 'reference' as const,
  },
  decision(
    'functions.argument-types',
    '4.3',
    "the types of a tracked function's arguments",
    "The fields of <function>_args are all nullable, as the engine types them (PostgreSQL takes null for any argument); the field `args` is required when some argument has no default and optional otherwise. An argument without a default may be given as null but not left out: left out, the request is refused with `Non default arguments cannot be omitted` (not-supported); one with a default left out takes the default. A computed field's arguments keep their nullability (non-null without a default).",
  ),
  decision(
    'graphql.cached',
    '4.3',
    'the @cached directive and the answers it keeps',
    'Every schema has the directive @cached(ttl: Int! = 60, refresh: Boolean! = false) on QUERY. A query that carries it is answered, while an earlier answer of it is less than ttl seconds old, with that answer and no statement, with the header Cache-Control: max-age=<seconds left>; refresh: true makes and keeps a new answer. An answer is kept for exactly the role, document, operation, variables and session variables it was made for, so that two sessions that could see different rows never share one; an answer with errors is not kept; a metadata change starts with no answers kept. The answers a server keeps are bounded by ENGINE_GRAPHQL_RESPONSE_CACHE_MAX_BYTES (32 MiB; 0 keeps none). The engine keeps this directive for its paid editions: here every edition has it.',
  ),
  decision(
    'source.connection-failure',
    '2.1',
    'why a source cannot be connected to, as answered',
    'A source whose database cannot be had — a URL that does not parse (an unclosed IPv6 address, a port out of range), a certificate file that cannot be read, a closed port, a port where something other than PostgreSQL answers, an unknown host, a PostgreSQL that refuses the database or the credentials — is refused (and later reported) with one message, `could not connect to the database`, in the inconsistent object of type source; never a 5xx, and never the URL, a password, or whether a host, port or file exists. The cause is written to the server\'s log. An environment variable that is not set is named: `environment variable "<name>" is not set`. Each read replica is checked like the primary when a source is added or its connections change; a read that a replica cannot serve (it does not answer, or refuses the session) is run on the primary, never answered with an error while the primary serves, and that replica is left aside for 30 s.',
  ),
  decision(
    'environment.values-unquoted',
    '5',
    "values read from the engine's environment are never shown",
    "An address or header value taken from the engine's environment (url_from_env, webhook_from_env, value_from_env, {{VAR}} in a handler, webhook or remote URL, a source's from_env) that cannot be used is named by its variable in the error, never by its value, in answers and logs: `the environment variable <name> (url_from_env) does not hold an http or https URL`, `the address made with the environment variable <name> is not an http or https URL`, `the environment variable <name> (header <header>) is not a valid header value`. {{VAR}} placeholders are filled in remote schema URLs, action handlers, event and cron trigger webhooks alike.",
  ),
  decision(
    'source.forms',
    '2.1',
    "PostgreSQL databases served beside the server's own: sources",
    "SPEC.md does not show sources; they take the engine's forms. The server's own database is the source `default`. pg_add_source {name, configuration {connection_info {database_url (a URL, {from_env}, or {connection_parameters {host, port, username, password?, database}}), pool_settings?, isolation_level?, use_prepared_statements?}, read_replicas?, extensions_schema?}, replace_configuration?, kind?} adds one (a name in use: already-exists, unless replace_configuration replaces its configuration); pg_update_source {name, configuration?} replaces the configuration; rename_source {name, new_name} renames it; pg_drop_source {name, cascade?} drops it with what is tracked in it. A source is connected to at once: one that cannot be reached is refused (invalid-configuration, Inconsistent object: connection error), and later it is an inconsistent object of type source while the other sources are served; drop_inconsistent_metadata drops it. The export lists other sources under `sources` [{name, kind: postgres, configuration, tables}] in the order they were added, left out when there are none; replace_metadata takes the same list, and version 3 documents (the default source's tables lifted, the others under `sources`). run_sql with `source` runs on that source's database, in its own transaction, committed together with the request's own (dec.source.atomic-commit); what is tracked there follows it as on the server's own database (a dropped table untracked, its dependents needing cascade; a renamed table or column refused). Table, relationship, permission, function and computed-field operations with a `source` work on that source's tables as they do on the server's own (remote relationships of both kinds too, see dec.remote-relationship.to-source). Event triggers too: create_event_trigger and delete_event_trigger with a source install and drop the database triggers on that source's database, which captures into a table of its own (engine_catalog.source_captured_event) that the server moves into its event log on each poll of the event worker; from there they are delivered, logged (get_event_logs, get_event_invocation_logs), invoked by hand, paused and redelivered as any other event, these operations taking the source as an argument. Trigger names are one namespace over all sources (already-exists). pg_drop_source drops the source's database triggers when it answers. The legacy DML (select, insert, update, delete, count) takes a `source` too: admin's runs in the request's transaction on that source, a role's under its permissions on the source's connections; a role's request naming two sources is refused (not-supported), its transaction being one; no two sources' tables and functions may share a GraphQL name (already-exists, or at start-up the later one is an inconsistent table left out). GraphQL serves every source's tables in one schema: a query reads each source with one statement on its own database (on one of its read_replicas in turn, when it has them: queries and subscriptions read a replica, mutations write the primary); a mutation runs on one source in one transaction, and one over two sources is refused (`mutations on tables of more than one source in one request are not supported`, not-supported). `default` cannot be added, dropped, renamed or changed (400 not-supported).",
  ),
  decision(
    'source.atomic-commit',
    '2.1',
    'a request that writes to several databases commits on all of them or on none',
    "A metadata request (a bulk mixing run_sql, the legacy DML and metadata changes over several sources) commits on every database it wrote to, or on none: the server's own database decides. Each other source's transaction that wrote is prepared (PREPARE TRANSACTION, gid engine_commit_<catalog>_<server>_<unique>) and recorded in the catalog; the server's own COMMIT then decides; the prepared ones are committed after it (COMMIT PREPARED) and their records deleted. A failure before the decision (a prepare refused: a deferred constraint, a temporary table, a lost connection; or the own COMMIT refused) rolls back every part and answers its error; a failure after it never turns the answer into an error, what is left being finished by recovery. When only one source wrote and the server's own database did not, that source commits plainly. Recovery, at start-up and every few seconds, holding the catalog lock (which every request holds from its prepares to the end of its commits): a prepared transaction of this catalog that is recorded is committed, one that is not is rolled back. A source whose PostgreSQL has max_prepared_transactions = 0 is refused when it is added or given another connection (400 invalid-configuration), and a request that would need to prepare on it is refused with the same message.",
  ),
  {
    ...decision(
      'source.transaction-guard',
      '2.1',
      "the transaction guard of other sources' databases",
      "run_sql on another source runs in a transaction that PostgreSQL itself keeps from being ended by the SQL, as on the server's own database: before the SQL first runs there, a row is inserted into engine_catalog.source_transaction_guard (made in the source's database the first time, in the same transaction) holding the SHA-256 of a token of the request's; a deferred constraint trigger refuses any COMMIT or PREPARE TRANSACTION that does not carry the token (EA001 `run_sql may not end the transaction of its request`), so that SQL which gets a COMMIT past run_sql's check fails there with everything it wrote. The engine's own commit deletes the row and carries the token. A database whose user may not create the guard runs the SQL without it, behind run_sql's parser check and the check that the transaction is still the same one.",
    ),
    verifiedBy: 'reference' as const,
  },
  decision(
    'remote-relationship.forms',
    '2.2',
    'remote relationships from a table to a remote schema',
    "create_remote_relationship {name, table, definition} adds a field named name to the table's type, answered by the remote schema: definition is {to_remote_schema {remote_schema, lhs_fields, remote_field}} or the older {remote_schema, hasura_fields, remote_field}, kept in the form given; remote_field is a path {field: {arguments, field?}} from the remote's query root in the remote's own names (under a customization too; the field's type is then the engine's name of it), and an argument value \"$column\" (at any depth) is that column of the row. The field's type is the last field's type, and its arguments those the path does not set. The export lists them in the table's entry as remote_relationships [{name, definition}]; replace_metadata takes them; update_remote_relationship replaces the definition; delete_remote_relationship and untracking the table remove them. A definition may instead join a table of a source: see dec.remote-relationship.to-source. Actions' output types take relationships to tables only (dec.actions.relationships), as in the engine.",
  ),
  decision(
    'remote-relationship.execution',
    '2.2',
    'how a remote relationship is answered',
    "A role sees a remote relationship when it may select every lhs_fields column and, with remote schema permissions enabled, its part of the remote has the whole path. The rows are read first; then each remote relationship of the operation is one request to its remote (never one per row): one aliased field per distinct set of column values, with the client's arguments, selections, fragments and variables, and the role's presets. Each row gets the answer of its values, in the row's place; a row with a null lhs column gets null without asking the remote. The remote's errors are added to the answer's errors with the path of the first row that asked (its data null there); an unreachable remote is the request's remote-schema-error. Remote relationships are not answered in subscriptions: Remote relationships are not allowed in subscriptions (a not-supported GraphQL error, as the engine answers).",
  ),
  decision(
    'remote-relationship.to-source',
    '2.2',
    'remote relationships to a table of a source',
    "create_remote_relationship (and pg_create_remote_relationship) also takes definition {to_source {source, table, relationship_type (object or array), field_mapping {column of this table: column of that table}}}, as the engine does; the table is exported as {schema, name}. The source may be any source of the metadata, default (the server's own database) included, and so may the relationship's own table (pg_create_remote_relationship with its source; exported under that source), for relationships to remote schemas as well. The field it adds is, for a role that may select every field_mapping column of its table and may select the target table: object: the target's type, nullable, without arguments; array: a non-null list of the target's rows with the arguments of an array relationship (distinct_on, limit, offset, order_by, where), and <name>_aggregate where the role may aggregate the target. Filters and order_by do not reach through it, as in the engine. A source that does not exist, a table not tracked there or a field_mapping column missing on either side refuses the change (invalid-configuration.source-relationship) and later makes the relationship an inconsistent object of type remote_relationship. Execution: the rows are read first; then each such field of the operation is one statement on its source (never one per row) over the distinct sets of the rows' field_mapping values, with the role's select permission of the target and the client's arguments applied per set; joins of one level to one source share one statement; a null mapped value matches no row (null, [] or a count of 0). Relationships inside its selection (to another source or a remote schema) are answered after it, level by level; a mutation's rows are joined after it committed. Not in subscriptions: Remote relationships are not allowed in subscriptions. Untracking the target table or dropping its source is refused (dependency-error, listing remote relationship [<source>.]<schema.table>.<name>) unless cascade, which removes the relationship too.",
  ),
  decision(
    'remote-schema.permissions',
    '2.4',
    "a role's permission on a remote schema",
    "add_remote_schema_permissions {remote_schema, role, definition {schema}, comment} gives a role the subset of a remote schema that the SDL describes; drop_remote_schema_permissions {remote_schema, role} takes it away; remove_remote_schema removes its permissions with it. The export lists them in the remote schema's entry as permissions [{role, definition {schema}, comment}] (in the order they were added), and replace_metadata takes them there. A role's request may use only the types, fields and arguments of its SDL (anything else is a validation-failed GraphQL error, as for a field that does not exist); the request sent to the remote is the role's fields as the client wrote them, with the presets added. A permission whose SDL is no longer a subset after the remote changes is an inconsistent object of type remote_schema_permission; the role then sees nothing of that remote.",
  ),
  decision(
    'remote-schema.presets',
    '2.4',
    'argument presets of a remote schema permission',
    "@preset(value: …) on an argument or input field of a role's SDL takes it out of the role's schema; the engine sends the value instead, whatever the client asks: on every use of the field for an argument, and in every object of that input type the client gives (as a literal or in a variable) for an input field. A string value beginning with x-engine- (any case) is a session variable, read per request and sent as the argument's scalar or enum (an Int, Float or Boolean variable must parse as one, X-Engine-User-Id should be an integer otherwise; a missing one is missing header : x-engine-user-id; both 200 invalid-headers), unless static: true makes it a plain string.",
  ),
  decision(
    'actions.forms',
    '2.2',
    'what actions are and how they run',
    "An action is a root field (query_root for type query, mutation_root for type mutation) whose arguments and output type are built-in scalars or custom types. Running it POSTs {action: {name}, input: <arguments>, session_variables: {x-engine-role, ...}, request_query} to its handler ({{ENV}} placeholders filled from the environment) with its headers (value or value_from_env) and, when forward_client_headers is true, the client's headers (never the admin secret, X-Engine-* or connection headers); a 2xx JSON answer is the field's value, completed against the output type and the selection; it waits at most timeout seconds. Admin uses every action; another role only those with a permission for it. The export form lists actions {name, definition with kind, type, arguments, output_type, handler, forward_client_headers, headers, timeout, comment, permissions [{role, comment}]} and custom_types {input_objects, objects, scalars, enums} with empty parts left out.",
  ),
  decision(
    'actions.async-results',
    '2.2',
    'asynchronous actions and who reads their results',
    'An asynchronous action is a mutation that logs the request and answers its id (uuid) at once; the action worker of any server calls the handler once and keeps its output or errors. The query field <action>(id: uuid!) answers {id, created_at, errors, output} or null: admin reads every result, another role those requested with its role and, when the request had one, the same X-Engine-User-Id. drop_action forgets the results unless clear_data is false.',
  ),
  decision(
    'actions.relationships',
    '2.7',
    'relationships of custom object types',
    "A relationship {name, type object | array, remote_table, field_mapping} of a custom object is a field of that object whose value is the rows of remote_table whose mapped columns equal the output's mapped fields (an object relationship: the first such row, or null; a null field gives null or []), read under the role's select permission; a role without a select permission on the table does not have the field.",
  ),
  decision(
    'graphql.batch',
    '4.1',
    'batched GraphQL requests',
    "POST /v1/graphql with a JSON array of requests answers a JSON array with each request's answer in order (HTTP 200), all under the credentials of the HTTP request; mutations of different operations are separate transactions, each answered even when another fails.",
  ),
  decision(
    'rest.missing-variable',
    '4.6',
    'a REST call without a required variable',
    'A variable of non-null type without a default that gets no value (or null) from the body, query string or route is refused before the query runs: 400 invalid-params "missing parameter : <variable>" at $.variables.<variable>.',
  ),
  decision(
    'rest.openapi',
    '4.6',
    'an OpenAPI document of the REST endpoints',
    'GET /api/swagger/json answers an OpenAPI 3.0 document with a path /api/rest/<template with {variable}> per endpoint url, an operation per method (operationId <name>_<method>, summary the comment or the name), its variables as path or query parameters and, for methods other than GET, as the properties of a JSON body; Int, Float, Boolean, String and ID map to JSON schema types.',
  ),
  decision(
    'events.form',
    '2.6',
    'the stored form of an event trigger',
    "An event trigger is exported inside its table's entry as {name, definition {enable_manual, insert/update/delete {columns}}, retry_conf {num_retries, interval_sec, timeout_sec} with the defaults 0/10/60 filled in, webhook or webhook_from_env, headers}; the names are unique across tables and are 1 to 42 letters, digits, _ or -.",
  ),
  decision(
    'events.payload',
    '6',
    'the body POSTed to the webhook',
    "The webhook gets {id, created_at, trigger {name}, table {schema, name}, event {op (INSERT, UPDATE, DELETE or MANUAL), data {old, new} (rows as JSON, null where there is none), session_variables (of the request that made the change, null for changes made outside the engine's APIs)}, delivery_info {max_retries, current_retry}} as application/json. The event is written in the transaction of the change: a change rolled back invokes nothing.",
  ),
  decision(
    'events.success',
    '6',
    'what counts as a delivered event',
    'A 2xx answer within timeout_sec; anything else (another status, no answer in time, no connection) is a failed attempt.',
  ),
  decision(
    'events.dead-letter',
    '6',
    'events that exhausted their retries',
    'After 1 + num_retries failed attempts an event is dead: kept with state dead and its attempts, shown by get_event_logs (status dead), and delivered again only by redeliver_event. Every attempt is in get_event_invocation_logs with its status, request and (up to 64 KiB of) response. Delivered events are deleted after ENGINE_GRAPHQL_EVENTS_RETENTION_SECONDS (default 7 days).',
  ),
  decision(
    'events.retry-after',
    '6',
    'when the next attempt comes',
    'interval_sec after a failed attempt, unless the webhook answered with a Retry-After (seconds or an HTTP date), which wins; ENGINE_GRAPHQL_EVENTS_RETRY_BACKOFF=exponential doubles the interval from attempt to attempt (at most an hour).',
  ),
  decision(
    'events.manual',
    '6',
    'invoking an event trigger by hand',
    'invoke_event_trigger {name, payload} on a trigger with enable_manual: true writes an event with op MANUAL and the payload as data.new, answers {event_id}, and delivers it like any other.',
  ),
  decision(
    'events.pause',
    '6',
    "pausing a trigger's deliveries",
    'pause_event_trigger {name} stops the delivery of the trigger\'s events, retries included, without dropping it: changes are still captured and wait as pending (get_event_logs lists them); resume_event_trigger {name} delivers them, oldest first. Both answer {"message": "success"} and may be repeated; an unknown trigger is refused with not-exists. A pause is the state of a running system, kept in the catalog beside the event log: export_metadata does not show it and replace_metadata keeps it while the trigger stays; removing the trigger ends it.',
  ),
  decision(
    'events.removed',
    '6',
    'the events of a removed trigger',
    'Removing an event trigger (delete_event_trigger, untracking its table, clear_metadata, replace_metadata without it) archives its events in the same transaction: they are never delivered or redelivered, and get_event_logs and get_event_invocation_logs no longer list them, also for a new trigger of the same name. Removing a cron trigger drops its invocations yet to come and archives the others alike: get_scheduled_events does not list them and a new trigger of the same name schedules from its own schedule. A delivery under way when its trigger is removed is settled into the archive (its webhook may still be called once), and invocations are never written from metadata a change has overtaken: a trigger removed and made again under its name lists only its own. One-off scheduled events belong to no trigger and stay.',
  ),
  decision(
    'events.replace',
    '2.6',
    'create_event_trigger with replace',
    'replace: true replaces the trigger of the same name (on whatever table it was) with the new definition; without it a second trigger of that name is refused.',
  ),
  decision(
    'events.shared',
    '6',
    'several servers on one database',
    'Every server delivers events; an event is taken by one server at a time (until its hold ends, when a server that died lets go), so without crashes each event reaches the webhook once.',
  ),
  decision(
    'cron.form',
    '2.5',
    'the stored form of a cron trigger',
    'A cron trigger is exported under cron_triggers as {name, webhook, schedule, include_in_metadata, payload, headers, retry_conf {num_retries, retry_interval_seconds, timeout_seconds, tolerance_seconds} with the defaults 0/10/60/21600 filled in, comment}. Its schedule has five fields evaluated in UTC; invocations are scheduled ahead (about ten minutes) and listed by get_scheduled_events.',
  ),
  decision(
    'cron.payload',
    '6',
    'the body POSTed for a scheduled invocation',
    "A cron invocation sends {id, name, scheduled_time, payload, comment}; a one-off event {id, scheduled_time, payload, comment}; success, retries, Retry-After and dead letters are as for events, with retry_interval_seconds and timeout_seconds. A {{VAR}} in a webhook is the engine's environment variable VAR.",
  ),
  decision(
    'cron.tolerance',
    '2.5',
    'invocations that come late',
    'An invocation whose first attempt would come more than tolerance_seconds after its scheduled time (the server was down, or a one-off event was scheduled in the past) is dead, not sent; invocations missed within the tolerance while no server ran are sent late.',
  ),
  decision(
    'cron.hidden',
    '6',
    'cron triggers with include_in_metadata false',
    'They are kept with the metadata but left out of export_metadata; replace_metadata and clear_metadata leave them in place; get_cron_triggers lists all; they run like the others.',
  ),
  decision(
    'bulk.atomic',
    '4.4',
    'bulk all or nothing',
    "bulk runs its operations in one transaction and answers the array of their responses; when one fails, nothing of the bulk is kept and the error carries the failing operation's path ($.args[1].args...).",
  ),
  decision(
    'auth.no-secret',
    '5',
    'roles when no admin secret is configured',
    'Without an admin secret, a request without X-Engine-Role is admin; X-Engine-Role selects the role. An X-Engine-Admin-Secret header sent to such an engine is ignored (whatever its value), as the engine this API comes from ignores it.',
  ),
  decision(
    'auth.session-variables',
    '5',
    'what the session variables of a request are',
    "The session variables of a request that names its own (with the admin secret, or without any auth configured) are its X-ENGINE-* headers, names lower-cased, and X-Engine-Role when it names a role; X-Engine-Admin-Secret is never a session variable, and other headers are none. A function's session argument receives them as a JSON object, with x-engine-role the role the request acts as.",
  ),
  decision(
    'auth.unauthorized-role',
    '5',
    'the session of the unauthorized role',
    'A request without credentials that takes ENGINE_GRAPHQL_UNAUTHORIZED_ROLE (with an admin secret configured, or in JWT mode without a token) acts as that role, whatever X-Engine-Role it sends, and its only session variable is x-engine-role: the X-ENGINE-* headers of an unauthenticated request cannot be trusted, so they are not session variables (a permission of that role naming another session variable refuses the request with missing header).',
  ),
  decision(
    'auth.admin-secret-role',
    '5',
    'roles with an admin secret',
    'With the right admin secret a request is admin, or acts as the role named by X-Engine-Role.',
  ),
  decision('apis.disabled-404', '5', 'answer of a disabled API', 'A disabled API answers 404 not-found "No such resource exists", as an unknown path does.'),
  decision(
    'config.jwt',
    '2.10',
    'the jwt field when JWT is not configured',
    'The config object has `jwt` only when JWT is configured; without it the field is absent.',
  ),
  decision(
    'graphql.root-fields',
    '4.3',
    'the GraphQL root fields of a tracked table',
    'A tracked table gives query fields <t>(where, order_by, limit, offset, distinct_on), <t>_by_pk(<pk columns>) and <t>_aggregate {aggregate {count(columns, distinct), sum, avg, max, min, stddev, stddev_pop, stddev_samp, var_pop, var_samp, variance}, nodes}, and mutations insert_<t>(objects, on_conflict), insert_<t>_one(object, on_conflict), update_<t>(where, _set, _inc, _append, _prepend, _delete_key, _delete_elem, _delete_at_path), update_<t>_by_pk(pk_columns, …), delete_<t>(where), delete_<t>_by_pk(<pk columns>); mutation responses are {affected_rows, returning}. Tables outside public are prefixed <schema>_.',
  ),
  decision(
    'graphql.where',
    '2.1',
    'the complete operator list of where',
    'Column operators: _eq _neq _gt _lt _gte _lte _in _nin _is_null; on text types _like _nlike _ilike _nilike _similar _nsimilar _regex _nregex _iregex _niregex; on jsonb _contains _contained_in _has_key _has_keys_any _has_keys_all; combined by _and, _or, _not and by several keys (conjunction); relationships filter by the existence of a matching related row. _and: [] holds, _or: [] does not; _in: [] holds for no row and _nin: [] for every row, nulls included.',
  ),
  decision(
    'graphql.null-comparison',
    '2.1',
    'comparisons with null',
    'A comparison with a null operand (_eq: null) follows SQL and matches no row; _is_null tests for null.',
  ),
  decision(
    'graphql.order-by',
    '4.3',
    'order_by',
    'order_by takes asc, desc and their _nulls_first/_nulls_last forms (asc puts nulls last, desc first), through object relationships and array relationship aggregates; distinct_on keeps the first row of each distinct value in that order.',
  ),
  decision(
    'graphql.errors',
    '7',
    'GraphQL errors',
    'GraphQL errors answer 200 {"errors": [{"message", "extensions": {"path", "code"}}]}: validation-failed for documents the schema refuses, postgres-error for a not-null violation ("Not-NULL violation. null value in column \"c\" violates not-null constraint"), constraint-violation for unique, foreign key and check violations.',
  ),
  decision(
    'graphql.mutations-atomic',
    '4.3',
    'several mutation fields in one request',
    'The root fields of a mutation run in order in one transaction: when one fails, none is kept.',
  ),
  decision(
    'graphql.update-many',
    '4.3',
    'several updates of one table in one field',
    "A role that may update a table also gets update_<t>_many(updates: [<t>_updates!]!): [<t>_mutation_response], as the engine names them: <t>_updates has the update operators of update_<t> (_set, _inc and the jsonb ones the role's columns allow) and where: <t>_bool_exp!. The updates run in the order given, in the request's transaction, each a statement of its own that sees what the earlier ones changed, each under the role's update permission (filter, columns, presets, check) and answering its own affected_rows and returning; no updates answer []; a failing check undoes them all. TableConfig's custom_root_fields takes update_many (default update_<t>_many), checked like the other root field names.",
  ),
  decision(
    'graphql.nested-inserts',
    '4.3',
    'inserting related rows through relationships',
    "As in the engine, <t>_insert_input has, besides the columns the role may insert, a field per relationship of the table (foreign-key or manual) whose target the role may insert into: an object relationship's is <target>_obj_rel_insert_input {data: <target>_insert_input!, on_conflict}, an array relationship's <target>_arr_rel_insert_input {data: [<target>_insert_input!]!, on_conflict}; on_conflict is there where the role may upsert into the target as at the root (it has an update permission there, or is admin). insert_<t> and insert_<t>_one insert a row's object relationships first (each row its own statement, under its table's insert permission: columns, presets, check, on_conflict), then the row with the columns those relationships map set from the inserted rows (over the role's presets), then its array relationships with their mapped columns set from the row; to any depth, in the request's transaction, each statement's check seeing the rows inserted before it; a failing check or any error undoes everything. Rows of a level without relationships to insert through are one statement. A null object relationship or an empty data list inserts nothing. affected_rows counts the rows of every level (an upsert's updated row included); returning gives the top-level rows, read after every level is inserted, so its relationships see the nested rows. Refusals: a column the parent or an object relationship sets given too (validation-failed; found in the whole input before anything is inserted, row by row in the order the engine inserts them), an object relationship whose insert leaves no row, and a row left without a row by its on_conflict that has array relationships to insert (not-supported); errors have path $ like the other mutation errors. A backend_only insert permission counts for a nested level only when the request may use it, as at the root.",
  ),
  decision(
    'graphql.enum-tables',
    '2.3',
    'enum tables in the GraphQL schema',
    'The rows of an enum table become the GraphQL enum <t>_enum (descriptions from the comment column); columns with a foreign key to it take that type.',
  ),
  decision(
    'graphql.roles-without-permissions',
    '4.3',
    'the schema of a role without permissions',
    'A role without permissions sees no table: its query root has only no_queries_available.',
  ),
  decision(
    'graphql.subscriptions',
    '1.2',
    'subscriptions',
    'Subscriptions are served at /v1/graphql over WebSocket with the graphql-transport-ws protocol; the subscription root has the fields of the query root for the role, and the streaming fields (dec.graphql.stream.schema). A subscription to a field of the query root is a live query: its first result is sent at once, then a new result each time the result changes, checked every refetch interval (ENGINE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL, default 1 s); a result equal to the last one sent is not sent again. Queries and mutations over the socket are answered once and completed. Credentials are the headers in the connection_init payload (`{"headers": {...}}`), over those of the upgrade request; a connection whose credentials are refused is closed with code 4403. An operation that does not validate gets an error message with extensions.code. When metadata changes, running subscriptions are compiled again; one that no longer validates, or whose statement fails, is sent a result with errors and completed.',
  ),
  decision(
    'graphql.stream.schema',
    '1.2',
    'streaming subscriptions in the schema',
    'For each tracked table the role may select from, the subscription root (never the query root) has <table>_stream(batch_size: Int!, cursor: [<table>_stream_cursor_input]!, where: <table>_bool_exp): [<table>!]!, described "fetch data from the table in a streaming manner: "<table>"" (the table as "name" in public, "schema.name" elsewhere), its arguments "maximum number of rows returned in a single batch", "cursor to stream the results returned by the query" and "filter the rows returned". input <table>_stream_cursor_input ("Streaming cursor of the table "<GraphQL name of the table>"") has initial_value: <table>_stream_cursor_value_input! ("Stream column input with initial value") and ordering: cursor_ordering ("cursor ordering"); input <table>_stream_cursor_value_input ("Initial value of the column from where the streaming should start") has every column the role may select, with its type (nullable) and its comment; enum cursor_ordering ("ordering argument of a cursor") has ASC ("ascending ordering of the cursor") and DESC ("descending ordering of the cursor"). The table configuration\'s custom_root_fields.select_stream names the field; it is checked like the select root fields (a GraphQL name, free among the subscription root\'s fields). Functions get no streaming field, as in the engine.',
  ),
  decision(
    'graphql.stream.cursor',
    '1.2',
    'what a streaming subscription sends',
    'A streaming subscription takes exactly one cursor of exactly one column: more cursors, or more columns in initial_value, is validation-failed "multiple column cursors are not supported yet"; none (an empty list, a list of nulls, an empty initial_value) "one streaming column field is expected"; ordering: null "expected an enum value for type "cursor_ordering", but found null"; a negative batch_size "expected a non-negative 32-bit integer for type "Int", but found an integer" ("a number" when it comes from a variable); null for a NOT NULL column of a built-in scalar "expected a 32-bit integer for type "Int", but found null" (a string, a float, a boolean for String, Float, Boolean; an enum value for the type of an enum table); a column the role may not select, or a value of the wrong type, is refused by validation against the schema as any other input is. Each batch holds the rows, under the role\'s select permission and where, whose cursor column is greater than the cursor (ASC, the default) or less (DESC), strictly, also for the first batch (the initial value itself is not sent), ordered by that column, at most batch_size of them and at most the permission\'s limit; a batch with rows is sent as {data: {<field>: [...]}} and the cursor becomes the cursor column of its last row; an empty batch sends nothing. The first batch is taken at once, the next ones every ENGINE_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_REFETCH_INTERVAL ms (default 1000). Rows whose cursor value is behind the cursor when they appear are never sent; a cursor column of unique, increasing values sends each row once. Every batch with rows is sent, also one whose JSON equals the batch before (the engine skips that one). When the metadata changes, a streaming subscription is compiled again and goes on from its cursor; one that no longer compiles, or whose statement fails, is sent the error and completed. Both WebSocket protocols serve them; a table of another source streams from its database.',
  ),
  decision(
    'graphql.stream.multiplexed',
    '1.2',
    'streaming subscriptions share their statements',
    'Streaming subscriptions of one document and role whose statements differ only in the session variables their permissions read, in GraphQL variables compared with columns, and in their cursors, share one statement per ENGINE_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_BATCH_SIZE (default 100) distinct (session, variables, cursor) rows per interval, as live queries do (dec.graphql.subscriptions); subscribers whose rows are alike are answered by one row.',
  ),
  decision(
    'boolexp.exists',
    '2.1',
    '_exists in permission expressions',
    'A permission expression may hold {_exists: {_table: <tracked table>, _where: <BoolExp on it>}}: true when some row of that table satisfies _where (session variables allowed).',
  ),
  decision(
    'http.content-type',
    '4.2',
    'content types of request bodies',
    'A POST body to /v1/query, /v1/metadata, /v2/query or /v1/graphql from a browser (a request with an Origin or Sec-Fetch-Site header) must have Content-Type application/json (or +json), or none; another type is refused with 415 {"path": "$", "error": "expected Content-Type: application/json, got <type>", "code": "unsupported-media-type"} and nothing runs. Other clients (curl -d, a script\'s fetch) may send any type whose body is JSON, as the engine this API comes from takes them.',
  ),
  decision(
    'graphql.over-http',
    '4.1',
    'GraphQL over HTTP',
    '/v1/graphql follows the GraphQL-over-HTTP specification as graphql-http audits it: every MUST and SHOULD, but one: a POST without Content-Type is taken (dec.http.content-type). A client whose Accept asks for application/graphql-response+json gets that media type, and a request that never ran (parse, validation or variable errors: errors without data) answers 400 under it; every other client gets application/json and 200 for such errors, as the engine this API comes from answers.',
  ),
  decision(
    'http.request-id',
    '4.1',
    'request ids',
    "Every answer carries an X-Request-Id header: the one the client sent, or a new one; the server's log line of the request names it.",
  ),
  decision(
    'graphql.legacy-ws',
    '4.1',
    'the legacy WebSocket subprotocol',
    'Beside graphql-transport-ws, /v1/graphql speaks the subprotocol graphql-ws of subscriptions-transport-ws, chosen when a client offers it and not graphql-transport-ws: connection_init {payload: {headers}} is answered with connection_ack and a keep-alive ka (then every 10 s), or with connection_error {message, extensions} and close code 4403; start {id, payload: {query, variables, operationName}} answers a query or mutation with one data and a complete, a subscription with a data message per changed result until stop (answered with complete); errors that stop an operation from running come as data {errors} and complete; connection_terminate closes with 1000. An operation before connection_init gets connection_error and close code 4401; a message that is not a JSON object closes with 4400.',
  ),
  decision(
    'http.cross-origin',
    '5',
    'requests from other origins (CORS)',
    'ENGINE_GRAPHQL_CORS_DOMAIN lists the origins allowed besides the server\'s own (scheme, host with an optional leading *. wildcard that excludes the bare domain, optional port; `*` for any). Unset, it is `*` for GraphQL when an admin secret is set, and no other origin otherwise. The admin APIs (metadata, query, config) take their own origin and origins listed explicitly, never `*`. A request whose Origin is not allowed is refused with 403 {"path": "$", "error": "the origin <origin> is not allowed by the CORS policy", "code": "access-denied"} before anything runs (a request to the admin APIs that a browser marks Sec-Fetch-Site: cross-site or same-site but sends without Origin is refused the same way, with origin null); an allowed one gets Access-Control-Allow-Origin (the origin), Access-Control-Allow-Credentials: true and Vary: Origin; a preflight (OPTIONS) of an allowed origin answers 204 with the allowed methods and the requested headers.',
  ),
  decision(
    'http.allowed-hosts',
    '5',
    'the host names a server answers to (DNS rebinding)',
    'ENGINE_GRAPHQL_ALLOWED_HOSTS lists the host names a request\'s Host header may carry (exact names, IP addresses, `*.example.org` for the names below example.org, `*` for any). Unset, it is any name when an admin secret is set, and the loopback names (localhost, *.localhost, 127.0.0.1, ::1) otherwise, since then every request is admin. Another host is refused with 403 {"path": "$", "error": "the host <host> is not one this server answers to; list it in ENGINE_GRAPHQL_ALLOWED_HOSTS", "code": "access-denied"} before anything runs, on every path and for WebSocket upgrades.',
  ),
  decision(
    'function.bare-name',
    '4.3',
    'a function named by a bare string',
    'track_function and untrack_function take args that are only the function\'s name as a string ("args": "my_function", a function of the public schema), as the engine\'s tools send them; "function": "my_function" names one the same way.',
  ),
  decision(
    'metadata.older-forms',
    '4.3',
    'metadata documents of the older versions',
    "replace_metadata (and the metadata directory) takes a document of version 1 (no version key, or version 1: a table entry's table and a function may be a bare name or {schema, name}, functions are listed by name) and of version 3 (tables and functions under sources: the source named default is the server's own database, whatever its configuration says; other sources are listed under `sources` (dec.source.forms); a source of another kind than postgres is 400 not-supported at its kind; inherited_roles and the other version 3 keys, and a source's customization, are dropped when empty or when they hold the defaults the engine writes into every project it exports (graphql_schema_introspection {disabled_for_roles: []}, customization {naming_convention: hasura-default}), and 400 not-supported otherwise), converted to version 2; export_metadata stays version 2.",
  ),
  decision(
    'table.column-config',
    '2.3',
    'column_config in a table configuration',
    "A TableConfig may carry column_config {<column>: {custom_name, comment}} as the engine does: custom_name names the column's GraphQL field like custom_column_names, comment is the field's description (over the database comment). Both forms may be given; per column, column_config wins. A configuration with column_config is stored and exported with column_config (the entries that say something) and custom_column_names (the custom names of the merged configuration), the engine's export; one with custom_column_names alone keeps that form. A column neither form may name that the table lacks is 400 not-exists.",
  ),
  decision(
    'function.customization',
    '4.3',
    'the custom names of a tracked function',
    "A function's configuration may carry custom_root_fields {function, function_aggregate}: the names of its root field and of its aggregate root field, over custom_name (which otherwise names both, <custom_name> and <custom_name>_aggregate) and the default name. The args type is always <custom_name or default name>_args. set_function_customization {function, configuration} (also pg_set_function_customization) replaces the whole configuration of a tracked function; an empty one takes every customization away. The names are checked like the others: not a GraphQL name is 400 validation-failed, one another table or function uses is 400 already-exists, an untracked function 400 not-exists; nothing changes then.",
  ),
  decision(
    'graphql.composite-scalars',
    '4.3',
    'GraphQL types of row-typed arguments and columns',
    "An argument (or column) whose type is a row type (a table's, or a composite type) is a scalar named <type>_scalar, as the engine names it, so that it never takes the name of the table's object type; its value is PostgreSQL's text form of the row, such as \"(1,10)\".",
  ),
  decision(
    'graphql.column-scalars',
    '4.3',
    'GraphQL scalars of column types',
    'A column (or argument) of type integer is Int, real (float4) is Float, boolean is Boolean, text and varchar are String, as the engine maps them; smallint and bigint are the scalars smallint and bigint; every other base type (float8, numeric, bpchar, uuid, jsonb, date, …) is a scalar of its PostgreSQL name, and an array is _<element>.',
  ),
  decision(
    'graphql.get-mutation',
    '4.1',
    'GraphQL over GET',
    'GET /v1/graphql runs queries (query, variables and operationName as URL parameters); a mutation over GET is refused with 405, header Allow: POST, and nothing runs.',
  ),
  // Where a server listens is seen from its start-up, not over HTTP.
  {
    ...decision(
      'server.listen-host',
      '5',
      'the address the server listens on',
      'Without ENGINE_GRAPHQL_SERVER_HOST the server listens on 127.0.0.1 when no admin secret is set (every request is admin then) and warns; on 0.0.0.0 with an admin secret.',
    ),
    verifiedBy: 'reference',
  },
  decision(
    'envelope.resource-version',
    '4.2',
    'conditional metadata changes',
    'The envelope of /v1/metadata and /v1/query may carry `resource_version` (an integer) beside type, version and args: the request runs only when the stored metadata has that resource version, else 409 conflict and nothing changes. Every request that changes metadata increases the resource version; reads do not.',
  ),
  decision(
    'export_metadata.v2',
    '4.3',
    'export_metadata version 2',
    'export_metadata with version 2 answers {"resource_version": <integer>, "metadata": <the export>}; version 1 (the default) answers the export alone.',
  ),
  decision(
    'limits.json-depth',
    '8',
    'how deep a request body may nest',
    'SPEC.md §8 shows no size limits. A JSON body nested deeper than ENGINE_GRAPHQL_MAX_JSON_DEPTH (default 128) is refused before anything runs (err.parse-failed.too-deep), on every API; the engine never fails with 500 on deep input.',
  ),
  decision(
    'limits.graphql-operation',
    '8',
    'how large, deep and wide a GraphQL operation may be',
    'A GraphQL document is at most ENGINE_GRAPHQL_MAX_DOCUMENT_BYTES and nests at most ENGINE_GRAPHQL_MAX_JSON_DEPTH brackets or fragment spreads, for every role; an operation of a role other than admin selects at most ENGINE_GRAPHQL_MAX_QUERY_DEPTH levels and ENGINE_GRAPHQL_MAX_QUERY_FIELDS fields, one of admin at most ENGINE_GRAPHQL_MAX_ADMIN_QUERY_DEPTH (default 100) and ENGINE_GRAPHQL_MAX_ADMIN_QUERY_FIELDS (default 20000), each spread of a fragment counted again, measured before anything expands them. Each refusal is a GraphQL error with code validation-failed and nothing runs.',
  ),
  decision(
    'limits.statement-timeout',
    '8',
    'how long the SQL of a request may run',
    "The SQL of a role other than admin is cancelled after ENGINE_GRAPHQL_STATEMENT_TIMEOUT_MS (default 30 s), admin's GraphQL after ENGINE_GRAPHQL_ADMIN_STATEMENT_TIMEOUT_MS (default 60 s; metadata operations and run_sql have none), answering a GraphQL error with code timeout. A client that goes away before its answer has its statement cancelled at once.",
  ),
  decision(
    'limits.query-cost',
    '8',
    "what a role's operation may cost",
    "Before an operation of a role other than admin first runs, PostgreSQL's planner estimates its statements (EXPLAIN, once per compiled plan); above ENGINE_GRAPHQL_MAX_QUERY_COST (default 10000000, in the planner's units; 0: no limit) it is refused with a GraphQL error (validation-failed, err.graphql.query-too-costly) and nothing runs. A fan-out many levels deep over relationships is refused this way long before its statement timeout. The estimate rests on statistics: a table the database has never analyzed (a small one, which autovacuum leaves alone, or a new one) is analyzed first, so that a nested query over a few rows is not taken for one over thousands.",
  ),
  decision(
    'limits.role-share',
    '8',
    "one role's share of the database connections",
    "The statements of one share — a role, all its users together, or one set of credentials that allow several roles (a JWT's x-engine-allowed-roles), whichever of them it uses — take at most ENGINE_GRAPHQL_MAX_CONNECTIONS_PER_ROLE of the ENGINE_GRAPHQL_PG_CONNECTIONS connections at once (default half of 10), and the last free connection is kept for a share that runs nothing yet; its further requests wait their turn in order, and a freed connection goes to the waiting share that runs the fewest statements (the one served longest ago among equals). However many shares send slow queries, another is answered as soon as a connection is free, before their queues.",
  ),
  decision(
    'version',
    '4.1',
    'the version endpoint',
    'GET /v1/version answers 200 {"version": "<the server\'s version>"} (a non-empty string) without credentials, as the engine\'s CLI expects.',
  ),
  decision(
    'healthz',
    '4.1',
    'health endpoint',
    'GET /healthz answers 200 "OK" while the database answers, and 500 "ERROR: " followed by the part that is unwell (such as "the database does not answer") otherwise.',
  ),
  decision('delete-permission.filter', '2.3', 'requiredness of DeletePermission fields', 'DeletePermission.filter is required.'),
];
