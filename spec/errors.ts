// The error catalogue: every row of SPEC.md §7.2 plus the errors the reference decided on
// where SPEC.md is silent. Handlers never write a message inline; they name an entry here.
import type { Level, SpecItem } from './item';

export interface ErrorSpec {
  id: string;
  /** null where §7.2 shows "(no code)". */
  code: string | null;
  status: number;
  /** The message pattern; each `<placeholder>` is filled in order by formatMessage. */
  message: string;
  level: Level;
  section: string;
  decision?: string;
  verifiedBy?: 'reference';
}

const e = (id: string, status: number, code: string | null, message: string): ErrorSpec => ({
  id: `err.${id}`,
  code,
  status,
  message,
  level: 'spec',
  section: '7.2',
});
const decided = (id: string, status: number, code: string, message: string, decision: string): ErrorSpec => ({
  ...e(id, status, code, message),
  level: 'compat',
  decision,
});

export const ERRORS: readonly ErrorSpec[] = [
  e('postgres-error.not-null', 400, 'postgres-error', 'Not-NULL violation. null value in column <column-name> violates not-null constraint'),
  e('permission-denied.select', 400, 'permission-denied', 'select on <column/table> for role <role-name> is not allowed.'),
  e('not-exists.table', 400, 'not-exists', 'table <table-name> does not exist'),
  e('not-exists.table-in-postgres', 400, 'not-exists', 'no such table/view exists in postgres : <table-name>'),
  e('not-exists.field', 400, 'not-exists', '<field-name> does not exist'),
  e('already-tracked', 400, 'already-tracked', 'view/table already tracked : <table-name>'),
  decided('already-untracked', 400, 'already-untracked', 'view/table already untracked : <table-name>',
    'untrack_table of a table that is not tracked (whether or not the database has it) is refused at $.args, as the engine does.'),
  e('access-denied.admin-only', 400, 'access-denied', 'restricted access : admin only'),
  e('not-supported.table-rename', 400, 'not-supported', 'table renames are not yet supported : <table-name>'),
  e('not-exists.column', 400, 'not-exists', '<column-name> does not exist'),
  e('already-exists.relationship-named-column', 400, 'already-exists', 'cannot add column <column-name> in table <table-name> as a relationship with the name already exists'),
  e('invalid-json', 400, 'invalid-json', 'invalid json'),
  e('not-supported.column-rename', 400, 'not-supported', 'column renames are not yet supported : <table-name>.<column-name>'),
  e('invalid-headers.missing', 400, 'invalid-headers', 'missing header : <header-name>'),
  e('dependency-error.column-type', 400, 'dependency-error', 'cannot change type of column <column-name> in table <table-name> because of the following dependencies : <dependencies>'),
  e('invalid-headers.user-id-integer', 400, 'invalid-headers', 'X-Engine-User-Id should be an integer'),
  e('dependency-error.drop', 400, 'dependency-error', 'cannot drop due to the following dependent objects : <dependencies>'),
  e('access-denied.admin-endpoint', 400, 'access-denied', 'You have to be admin to access this endpoint'),
  e('parse-failed.dotted-table', 400, 'parse-failed', 'parsing dotted table failed : <table-name>'),
  e('access-denied.tx', 400, 'access-denied', 'not authorised to access this tx'),
  e('already-exists.multiple-declarations', 400, 'already-exists', 'multiple declarations exist for the following <table-name> : <duplicates>'),
  e('not-exists.tx', 400, 'not-exists', 'tx does not exists'),
  e('already-exists.column-or-relationship', 400, 'already-exists', 'column/relationship of table <table-name> already exists'),
  // Raised while the server starts on a catalog it cannot use: seen in its log, not over HTTP.
  { ...e('already-initialised', 400, 'already-initialised', 'the state seems to be initialised already. you may need to migrate from this version: <catalog-version>'), verifiedBy: 'reference' },
  e('constraint-error.no-foreign-key', 400, 'constraint-error', 'no foreign constraint exists on the given column'),
  { ...e('not-supported.catalog-version', 400, 'not-supported', 'unsupported version : <catalog-version>'), verifiedBy: 'reference' },
  e('constraint-error.several-foreign-keys', 400, 'constraint-error', 'more than one foreign key constraint exists on the given column'),
  e('already-exists.query-template', 400, 'already-exists', 'the query template already exists <template-name>'),
  e('permission-error.exists', 400, 'permission-error', '<permission-type> permission on <table-name> for role <role-name> already exists'),
  e('permission-error.not-exists', 400, 'permission-error', '<permission-type> permission on <table-name> for role <role-name> does not exist'),
  e('unexpected-payload.unknown-operator', 400, 'unexpected-payload', 'Unknown operator : <operator-type>'),
  e('unexpected-payload.expecting-string', 400, 'unexpected-payload', 'expecting a string for column operator'),
  e('unexpected-payload.incompatible-columns', 400, 'unexpected-payload', 'incompatible column types : <column-name>, <column-name>'),
  e('unexpected-payload.upsert-needs-constraint', 400, 'unexpected-payload', 'Expecting constraint or constraint_on when the action is update'),
  e('unexpected-payload.constraint-and-constraint-on', 400, 'unexpected-payload', 'constraint and constraint_on cannot be set at a time'),
  e('unexpected-payload.upsert-not-allowed', 400, 'unexpected-payload', 'upsert is not allowed for role <role-name>'),
  e('unexpected-payload.objects-empty', 400, 'unexpected-payload', 'objects should not be empty'),
  e('invalid-params.missing', 400, 'invalid-params', 'missing parameter : <param-name>'),
  e('unexpected-payload.empty', 400, 'unexpected-payload', "can't be empty"),
  e('no-code.relationship-expand', 400, null, '<col-name> is a relationship and should be expanded'),
  e('unexpected-payload.include-in-columns', 400, 'unexpected-payload', '<column-name> should be included in columns'),
  e('unexpected-payload.array-relationship-order-by', 400, 'unexpected-payload', "<column-name> is an array relationship and can't be used in order_by"),
  e('no-code.column-chained', 400, null, '<column-name> is a Postgres column and cannot be chained further'),
  e('unexpected-payload.order-by-empty', 400, 'unexpected-payload', 'order_by array should not be empty'),
  e('unexpected-payload.object-relationship-arguments', 400, 'unexpected-payload', "when selecting an obj_relationship where, order_by, limit and offset can't be used"),
  e('unexpected-payload.update-operators', 400, 'unexpected-payload', 'atleast one of $set, $inc, $mul has to be present'),
  e('permission-denied.operation', 400, 'permission-denied', '<permission-type> on <table-name> for role <role-name> is not allowed'),
  e('not-exists.no-such-column', 400, 'not-exists', 'no such column exists : <column-name>'),
  e('permission-denied.column', 400, 'permission-denied', 'role <role-name> does not have permission to <permission-type> column <column-name>'),
  e('no-code.expecting-column', 400, null, 'expecting a postgres column; but, <name> is relationship'),
  e('unexpected-payload.json-in-where', 400, 'unexpected-payload', 'JSON column can not be part of where clause'),
  e('unexpected-payload.operator-column-type', 400, 'unexpected-payload', 'is of type <type-name>; this operator works only on column of types <[types]>'),
  e('postgres-error.query-failed', 400, 'postgres-error', 'query execution failed'),
  e('unexpected.relationship-dependency', 500, 'unexpected', 'unexpected dependency of relationship : <dependency>'),
  e('unexpected.dependent-object', 500, 'unexpected', 'unexpected dependent object : <dependency>'),
  e('unexpected.field-exists', 500, 'unexpected', 'field already exists'),
  e('unexpected.field-not-exists', 500, 'unexpected', 'field does not exist'),
  e('unexpected.permission-not-exists', 500, 'unexpected', 'permission does not exist'),
  e('postgres-error.transaction', 500, 'postgres-error', 'postgres transaction error'),
  { ...e('postgres-error.connection', 500, 'postgres-error', 'connection error'), verifiedBy: 'reference' },
  e('postgres-error.query', 500, 'postgres-error', 'postgres query error'),
  { ...e('not-found', 404, 'not-found', 'No such resource exists'), section: '7.1' },

  // Where SPEC.md is silent (§5.6, §7.1 "conditions that yield 401: not shown", envelope errors).
  decided('admin-secret.missing', 401, 'access-denied', 'x-engine-admin-secret required, but not found',
    'With an admin secret configured and no other credentials, a request is refused with 401.'),
  decided('admin-secret.invalid', 401, 'access-denied', 'invalid x-engine-admin-secret',
    'A wrong admin secret is refused with 401; the comparison takes constant time.'),
  decided('parse-failed.arguments', 400, 'parse-failed', '<problem>',
    'Malformed envelopes and arguments are 400 parse-failed, with the path of the first problem ($.args.table) and a message such as `key "table" not found` or `expected String, but encountered Number`; unknown keys are refused.'),
  decided('parse-failed.unknown-operation', 400, 'parse-failed', 'unknown operation type : <type>',
    'An unknown `type`, or one that the endpoint does not take, is 400 parse-failed at path $.type.'),
  decided('parse-failed.unknown-operation-near', 400, 'parse-failed', 'unknown operation type : <type>; did you mean <near>?',
    'An unknown `type` close to the name of an operation the endpoint takes (at most two edits apart) is refused as unknown, naming the near operation.'),
  decided('parse-failed.operation-elsewhere', 400, 'parse-failed', 'unknown operation type : <type>; it is taken at <endpoints>',
    'A `type` that another endpoint takes, but not this one, is refused as unknown, naming the endpoints that take it.'),
  decided('not-exists.source', 400, 'not-exists', 'source with name <source> does not exist',
    'An operation whose `source` argument names another source than `default` is refused at $.args, changing nothing (decision dec.metadata.source-prefixed).'),
  decided('parse-failed.unsupported-operation-version', 400, 'parse-failed', 'unsupported version <version> for <type>; supported: <versions>',
    'A `version` that the operation does not have is 400 parse-failed at path $.version.'),
  // The reference's own gap, not a rule for other engines: its tests check it.
  {
    ...decided('not-supported.not-implemented', 400, 'not-supported', '<what> is not supported by this server yet',
      'Operations and metadata kinds the server does not implement yet are refused with 400 not-supported, leaving everything unchanged.'),
    verifiedBy: 'reference',
  },
  decided('unexpected.inconsistent-metadata', 400, 'unexpected', 'cannot continue due to inconsistent metadata',
    'The 400 of replace_metadata rule 1 carries, besides `internal`, this code and message, as Hasura does.'),
  decided('validation-failed.graphql-name', 400, 'validation-failed', '<what> is not a valid GraphQL name',
    'A table, column, constraint or relationship whose GraphQL name would not be a valid GraphQL name (/[_A-Za-z][_0-9A-Za-z]*/, not starting with __) is refused; a custom name makes a table or column trackable.'),
  decided('validation-failed.enum-table', 400, 'validation-failed', 'the table <table-name> cannot be used as an enum because <reason>',
    'An enum table has a single-column text primary key, at most one other column (a text comment), at least one row, and values that are valid GraphQL enum values.'),
  decided('already-exists.graphql-name', 400, 'already-exists', 'the GraphQL name <name> of <what> conflicts with <other>',
    'Two tracked tables may not give the same GraphQL root field or type name; the later change is refused.'),
  decided('constraint-violation.admin-role', 400, 'constraint-violation', 'in table <table-name>: in permission for role "admin": cannot define permission for admin role',
    'The admin role has unrestricted access (SPEC.md §1.4): a permission for it is refused at $.args, in create_*_permission and in replace_metadata, as the engine does.'),
  decided('bad-request.access-mode', 400, 'bad-request', 'incompatible access mode requirements in bulk query, expected access mode: <expected> but <path> forces <mode>',
    'A bulk whose members need different transaction access modes (a write, or run_sql, beside run_sql with read_only: true) is refused at $ before any member runs; the first member that needs a mode sets what is expected. select, count and the metadata reads need none.'),
  decided('parse-failed.permission-value', 400, 'parse-failed', 'a value does not fit its column: <database message>',
    'A permission whose filter, check or set holds a literal value that its column\'s type cannot take ("abc" for an integer) is refused when it is created, at the expression\'s path, with the database\'s reason; session variables are checked per request.'),
  decided('parse-failed.empty-name', 400, 'parse-failed', 'empty string not allowed',
    'Role, relationship and computed-field names are checked when the arguments are parsed, before anything is looked up: an empty one is refused at its path even when the table does not exist.'),
  decided('parse-failed.role-name', 400, 'parse-failed', 'a role name may not have control characters or surrounding spaces',
    'A role name travels in an HTTP header (X-Engine-Role): one with control characters or leading or trailing white space is refused at its path when the arguments are parsed.'),
  decided('permission-error.check-failed', 400, 'permission-error', 'check constraint of an insert/update permission has failed',
    'A row that an insert or update leaves failing the permission check undoes the whole mutation; GraphQL answers this error with code permission-error.'),
  decided('jwt.invalid', 400, 'invalid-jwt', 'Could not verify JWT: <reason>',
    'A token that does not verify (signature, expiry, not-before, audience, issuer) or lacks x-engine-allowed-roles / x-engine-default-role is refused with 400 invalid-jwt.'),
  decided('jwt.missing', 401, 'access-denied', "Missing 'Authorization' or 'Cookie' header in JWT authentication mode",
    'In JWT mode a request without a token (and without the admin secret) takes the unauthorized role, or is refused with 401.'),
  decided('jwt.role-not-allowed', 400, 'access-denied', 'Your current role is not in allowed roles',
    'X-Engine-Role must name one of the token\'s x-engine-allowed-roles; without it the token\'s default role applies.'),
  decided('webhook.unauthorized', 401, 'access-denied', 'Authentication hook unauthorized this request',
    'The authentication webhook refuses a request by answering 401; the engine answers 401 access-denied.'),
  decided('webhook.invalid-response', 500, 'unexpected', 'Invalid response from authorization hook: <reason>',
    'A webhook answer other than 200 with an object of session variables including X-Engine-Role, or 401, is a 500.'),
  decided('webhook.unreachable', 500, 'unexpected', 'The authentication hook could not be reached',
    'A webhook that does not answer within 10 s is a 500.'),
  decided('request-too-large', 413, 'request-too-large', 'request body is larger than <limit> bytes',
    'Request bodies are limited (ENGINE_GRAPHQL_MAX_REQUEST_BODY_BYTES, default 100 MiB); a larger one is refused with 413.'),
  decided('access-denied.origin', 403, 'access-denied', 'the origin <origin> is not allowed by the CORS policy',
    'A request whose Origin header names an origin that the CORS policy does not allow for that API is refused with 403 before anything runs (decision dec.http.cross-origin).'),
  decided('unsupported-media-type', 415, 'unsupported-media-type', 'expected Content-Type: application/json, got <type>',
    'A request body of another media type than JSON is refused with 415 before anything runs (decision dec.http.content-type).'),
  decided('unsupported-media-type.encoding', 415, 'unsupported-media-type', 'unsupported Content-Encoding <encoding>; send identity, gzip, deflate or br',
    'A request body with a Content-Encoding other than identity, gzip, deflate or br is refused with 415 before anything runs.'),
  decided('parse-failed.too-deep', 400, 'parse-failed', 'the request nests deeper than <limit> levels',
    'A JSON body (a metadata envelope, or a GraphQL request with its variables) that nests arrays and objects deeper than ENGINE_GRAPHQL_MAX_JSON_DEPTH (default 128) is refused before anything runs: 400 at /v1/metadata and /v1/query, a GraphQL error with code validation-failed at /v1/graphql.'),
  decided('graphql.document-too-large', 200, 'validation-failed', 'the query is larger than <limit> bytes',
    'A GraphQL document larger than ENGINE_GRAPHQL_MAX_DOCUMENT_BYTES (default 256 KiB) is refused, for every role, before it is parsed.'),
  decided('graphql.document-too-deep', 200, 'validation-failed', 'the query nests deeper than <limit> levels',
    'A GraphQL document whose brackets, or chain of fragments spreading fragments, nest deeper than ENGINE_GRAPHQL_MAX_JSON_DEPTH is refused, for every role.'),
  decided('graphql.operation-too-deep', 200, 'validation-failed', 'the query selects <depth> levels deep; at most <limit> are allowed',
    'An operation of a role other than admin whose selections nest deeper than ENGINE_GRAPHQL_MAX_QUERY_DEPTH (default 25; the standard introspection query is 15) is refused.'),
  decided('graphql.operation-too-wide', 200, 'validation-failed', 'the query selects <fields> fields; at most <limit> are allowed',
    'An operation of a role other than admin that selects more than ENGINE_GRAPHQL_MAX_QUERY_FIELDS fields (default 2000; aliases and each spread of a fragment count again) is refused.'),
  decided('graphql.statement-timeout', 200, 'timeout', 'the query ran longer than <limit> ms and was cancelled',
    'The SQL of a role other than admin runs with statement_timeout ENGINE_GRAPHQL_STATEMENT_TIMEOUT_MS (default 30000; 0 for none); a statement cancelled by it answers this GraphQL error, and a mutation is undone.'),
  decided('conflict', 409, 'conflict', 'metadata resource version referenced (<version>) did not match current version',
    'A metadata request whose envelope carries a resource_version other than the current one is refused with 409 and changes nothing (decision dec.envelope.resource-version).'),
  decided('bad-request.transaction-control', 400, 'bad-request', 'run_sql runs inside the transaction of its request and may not end it: <statement>',
    'run_sql text with a statement that begins or ends a transaction (BEGIN, START TRANSACTION, COMMIT, END, ROLLBACK, ABORT, PREPARE TRANSACTION) is refused before any of it runs, at $.args.sql; savepoints are allowed. A COMMIT that gets through anyway is refused by PostgreSQL, and nothing of the request is kept.'),
];

export const ERRORS_BY_ID: ReadonlyMap<string, ErrorSpec> = new Map(ERRORS.map((x) => [x.id, x]));

/** Fill the `<placeholders>` of an entry's message, in order. */
export function formatMessage(id: string, ...params: string[]): string {
  const spec = ERRORS_BY_ID.get(id);
  if (!spec) throw new Error(`unknown error id ${id}`);
  let i = 0;
  return spec.message.replace(/<[^<>]+>/g, (placeholder) => params[i++] ?? placeholder);
}

export const ERROR_ITEMS: SpecItem[] = ERRORS.map((x) => ({
  id: x.id,
  section: x.section,
  level: x.level,
  summary: `${x.status} ${x.code ?? '(no code)'}: ${x.message}`,
  ...(x.decision ? { decision: x.decision } : {}),
  ...(x.verifiedBy ? { verifiedBy: x.verifiedBy } : {}),
}));
