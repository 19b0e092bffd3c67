// The errors of the top-level parts of a document beside tables and functions (decision
// dec.metadata.top-level): their operations, and what they make the GraphQL API refuse.
// Entries of the catalogue in its shape (ErrorSpec of errors.ts, which lists them).
const decided = (id: string, status: number, code: string, message: string, decision: string) => ({
  id: `err.${id}`,
  code,
  status,
  message,
  level: 'compat' as const,
  section: '7.2',
  decision,
});

export const TOP_LEVEL_ERRORS = [
  decided(
    'invalid-params.inherited-role-in-set',
    400,
    'invalid-params',
    'an inherited role name cannot be in the role combination',
    'add_inherited_role whose role_set names the role itself is refused at $.args, as the engine refuses it; nothing changes.',
  ),
  decided(
    'not-exists.inherited-role',
    400,
    'not-exists',
    "<role> inherited role doesn't exist",
    'drop_inherited_role of a role that is no inherited role is refused at $.args; nothing changes.',
  ),
  decided(
    'not-exists.parent-roles',
    400,
    'not-exists',
    'the following parent role(s) are not found: <roles> which are required to construct the inherited role: <role>',
    'An inherited role whose role set names a role that no permission, inherited role, function, action or remote schema permission names cannot be made: add_inherited_role is refused with this error; in a document it is an inconsistent object of type inherited_role with this reason.',
  ),
  decided(
    'cyclic-dependency.roles',
    400,
    'cyclic-dependency',
    'found cycle(s) in roles: <cycles>',
    'Inherited roles may inherit from inherited roles, but not in a cycle: a document or operation that makes one is refused, each cycle written as the list of its roles from one back to itself.',
  ),
  decided(
    'already-exists.tls-host',
    400,
    'already-exists',
    'the host <host> already exists in the allowlist',
    'add_host_to_tls_allowlist of a host already in network.tls_allowlist is refused at $.args; nothing changes.',
  ),
  decided(
    'not-exists.tls-host',
    400,
    'not-exists',
    "the host <host> isn't present in the allowlist",
    'drop_host_from_tls_allowlist of a host that is not in network.tls_allowlist is refused at $.args; nothing changes.',
  ),
  decided(
    'bad-request.tls-host-empty',
    400,
    'bad-request',
    'hostname cannot be empty',
    'drop_host_from_tls_allowlist with an empty host is refused at $.args (add_host_to_tls_allowlist with one: key "host" cannot be empty, at $.args); nothing changes.',
  ),
  decided(
    'graphql.introspection-disabled',
    200,
    'not-supported',
    'introspection is disabled for role: <role>',
    'A GraphQL operation of a role that graphql_schema_introspection.disabled_for_roles names which selects __schema or __type is refused with this error at path $, nothing of it run; __typename is answered.',
  ),
  decided(
    'graphql.depth-limit',
    200,
    'validation-failed',
    'depth limit of <limit> exceeded',
    "An operation of a role other than admin that selects deeper than the role's api_limits.depth_limit (its per_role entry, else global) is refused before it runs; introspection fields are not counted.",
  ),
  decided(
    'graphql.node-limit',
    200,
    'validation-failed',
    'node limit of <limit> exceeded',
    "An operation of a role other than admin with more nodes (fields with a selection set) than the role's api_limits.node_limit is refused before it runs.",
  ),
  decided(
    'graphql.batch-limit',
    200,
    'validation-failed',
    'batch limit of <limit> exceeded',
    "A batched request (a JSON array of operations) of a role other than admin with more operations than the role's api_limits.batch_limit is refused whole before any runs.",
  ),
  decided(
    'graphql.rate-limit',
    200,
    'rate-limit-exceeded',
    'rate limit of <limit> exceeded',
    "A role other than admin may send at most api_limits.rate_limit's max_reqs_per_min GraphQL requests in any minute (counted per role, and per client IP or per the values of the listed session variables when unique_params says so); the ones beyond are refused with this error at path $ and nothing runs.",
  ),
  decided(
    'graphql.time-limit',
    200,
    'timeout',
    'time limit of <limit> seconds exceeded',
    "The statements of an operation of a role other than admin are cancelled once they ran longer than the role's api_limits.time_limit seconds (when that is below the server's statement timeout); a mutation is undone.",
  ),
];
