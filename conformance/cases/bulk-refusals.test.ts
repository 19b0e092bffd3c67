// A refusal inside a bulk (SPEC.md §3, `bulk`): the whole request is refused with the member's own
// code and message, at the member's place under `$.args[i]`, and nothing of it stays, not even the
// members before it that succeeded on their own. Each row is a second case for one refusal that
// the operation's own file checks too: a check that only the direct request makes, a path that
// forgets the member's place, or a member that stays after a later one is refused fails here.
import { branded } from '../harness/brand';
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { useTarget } from '../harness/target';

const target = useTarget();
const run = (type: string, args: unknown) => target.metadata({ type, args });
const exported = async () => (await run('export_metadata', {})).body as Record<string, unknown>;

const item = { schema: 'bulk_refusals', name: 'item' };
const search = { schema: 'bulk_refusals', name: 'search_items' };
const hook = 'http://127.0.0.1:9/hook';
const trigger = (name: string, extra: Record<string, unknown> = {}) => ({ name, table: item, webhook: hook, insert: { columns: '*' }, ...extra });
const cron = (name: string, schedule = '0 0 * * *') => ({ name, webhook: hook, schedule, include_in_metadata: true });
const customTypes = { objects: [{ name: 'Quote', fields: [{ name: 'text', type: 'String!' }] }] };
const action = (name: string) => ({ name, definition: { kind: 'synchronous', type: 'query', arguments: [], output_type: 'Quote', handler: hook } });
const collection = (name: string) => ({ name, definition: { queries: [{ name: 'items', query: 'query items { bulk_refusals_item { id } }' }] } });
const ADD_ITEM = 'mutation add { insert_bulk_refusals_item_one(object: {id: 1, name: "a"}) { id } }';
const selectAll = { columns: '*', filter: {} };
const restEndpoint = (name: string, url: string) => ({ name, url, methods: ['GET'], definition: { query: { collection_name: 'app', query_name: 'items' } } });

const FIXTURE = `
drop schema if exists bulk_refusals cascade;
create schema bulk_refusals;
create table bulk_refusals.item (id int primary key, name text not null);
create table bulk_refusals.other (id int primary key);
create table bulk_refusals.pair (id int primary key, other_id int references bulk_refusals.other (id), constraint pair_other_again foreign key (other_id) references bulk_refusals.other (id));
create function bulk_refusals.search_items(q text) returns setof bulk_refusals.item stable language sql as $$ select * from bulk_refusals.item where name like q $$;
create function bulk_refusals.add_item(n text) returns setof bulk_refusals.item volatile language sql as $$ insert into bulk_refusals.item values (1, n) returning * $$;
create function bulk_refusals.count_items() returns int stable language sql as $$ select count(*)::int from bulk_refusals.item $$;
create function bulk_refusals.item_label(i bulk_refusals.item) returns text stable language sql as $$ select i.name $$;
create function bulk_refusals.item_tags(i bulk_refusals.item) returns setof text stable language sql as $$ select i.name $$;
create function bulk_refusals.label_of(n text, i bulk_refusals.item) returns text stable language sql as $$ select n $$;
create function bulk_refusals.same_items(i bulk_refusals.item) returns setof bulk_refusals.item stable language sql as $$ select * from bulk_refusals.item where id = i.id $$;
create function bulk_refusals.pairs(inout a int, out b int) returns setof record stable language sql as $$ select a, a $$;
`;

interface Row {
  /** Requests that must succeed first (kept: they are the state the refused member meets). */
  setup: { type: string; args: unknown }[];
  member: { type: string; version?: number; args: unknown };
  code: string;
  error: string;
  /** Where the member's own request is refused, from its own `$`. */
  path: string;
  internal?: unknown;
}

/** `$.args` → `$.args[1].args`: the member's path under its place in the bulk. */
const under = (index: number, path: string) => `$.args[${index}]${path.slice(1)}`;

beforeAll(async () => {
  await target.sql(FIXTURE);
});

beforeEach(async () => {
  await target.reset();
});

/**
 * A case for one refusal: `ids` names it (literally, so the coverage count sees it), the row says
 * the state it meets, the refused member, and its answer on its own.
 */
function caseInBulk(ids: [string], row: Row): void {
  test(
    covers(
      ['op.bulk', ...ids],
      `in a bulk, after a member that succeeds, the whole request is refused at the member's place and nothing stays: ${row.member.type}`,
    ),
    async () => {
      for (const step of row.setup) expectResponse(await target.metadata(step), 200);
      const before = await exported();
      const probe = { type: 'create_query_collection', args: collection('bulk_probe') };
      expectResponse(await target.metadata({ type: 'bulk', args: [probe, row.member] }), 400, {
        code: row.code,
        error: row.error,
        path: under(1, row.path),
        ...(row.internal === undefined ? {} : { internal: row.internal }),
      });
      expect(await exported()).toEqual(before);
      // The member alone is refused alike, at its own path.
      expectResponse(await target.metadata(row.member), 400, {
        code: row.code,
        error: row.error,
        path: row.path,
        ...(row.internal === undefined ? {} : { internal: row.internal }),
      });
    },
  );
}

caseInBulk(['err.already-tracked'], {
  setup: [{ type: 'track_table', args: { table: item } }],
  member: { type: 'track_table', args: { table: item } },
  code: 'already-tracked',
  error: 'view/table already tracked : "bulk_refusals.item"',
  path: '$.args',
});

caseInBulk(['err.already-untracked'], {
  setup: [],
  member: { type: 'untrack_table', args: { table: item } },
  code: 'already-untracked',
  error: 'view/table already untracked : "bulk_refusals.item"',
  path: '$.args',
});

caseInBulk(['err.permission-error.exists'], {
  setup: [
    { type: 'track_table', args: { table: item } },
    { type: 'create_select_permission', args: { table: item, role: 'user', permission: selectAll } },
  ],
  member: { type: 'create_select_permission', args: { table: item, role: 'user', permission: selectAll } },
  code: 'permission-error',
  error: 'select permission on "bulk_refusals.item" for role "user" already exists',
  path: '$.args',
});

caseInBulk(['err.permission-error.not-exists'], {
  setup: [{ type: 'track_table', args: { table: item } }],
  member: { type: 'drop_update_permission', args: { table: item, role: 'user' } },
  code: 'permission-error',
  error: 'update permission on "bulk_refusals.item" for role "user" does not exist',
  path: '$.args',
});

caseInBulk(['err.constraint-violation.admin-role'], {
  setup: [{ type: 'track_table', args: { table: item } }],
  member: { type: 'create_select_permission', args: { table: item, role: 'admin', permission: selectAll } },
  code: 'constraint-violation',
  error: 'in table "bulk_refusals.item": in permission for role "admin": cannot define permission for admin role',
  path: '$.args',
});

caseInBulk(['err.parse-failed.role-name'], {
  setup: [{ type: 'track_table', args: { table: item } }],
  member: { type: 'create_select_permission', args: { table: item, role: ' user', permission: selectAll } },
  code: 'parse-failed',
  error: 'a role name may not have control characters or surrounding spaces',
  path: '$.args.role',
});

caseInBulk(['err.already-exists.column-or-relationship'], {
  setup: [{ type: 'track_table', args: { table: item } }],
  member: {
    type: 'create_object_relationship',
    args: { table: item, name: 'name', using: { manual_configuration: { remote_table: item, column_mapping: { id: 'id' } } } },
  },
  code: 'already-exists',
  error: 'column/relationship of table "bulk_refusals.item" already exists',
  path: '$.args',
});

caseInBulk(['err.already-tracked.function'], {
  setup: [
    { type: 'track_table', args: { table: item } },
    { type: 'track_function', args: search },
  ],
  member: { type: 'track_function', args: search },
  code: 'already-tracked',
  error: 'function already tracked : "bulk_refusals.search_items"',
  path: '$.args',
});

caseInBulk(['err.not-supported.function-untracked-table'], {
  setup: [],
  member: { type: 'track_function', args: search },
  code: 'not-supported',
  error: 'function "bulk_refusals.search_items" cannot be tracked: the table "bulk_refusals.item" it returns is not tracked',
  path: '$.args',
});

caseInBulk(['err.not-supported.function-return-type'], {
  setup: [{ type: 'track_table', args: { table: item } }],
  member: { type: 'track_function', args: { schema: 'bulk_refusals', name: 'count_items' } },
  code: 'not-supported',
  error: 'function "bulk_refusals.count_items" cannot be tracked: it must return rows of a table (SETOF table or table), but returns int4',
  path: '$.args',
});

caseInBulk(['err.not-supported.function-volatility'], {
  setup: [{ type: 'track_table', args: { table: item } }],
  member: { type: 'track_function', version: 2, args: { function: search, configuration: { exposed_as: 'mutation' } } } as Row['member'],
  code: 'not-supported',
  error: 'function "bulk_refusals.search_items" is STABLE and can only be exposed as a query',
  path: '$.args',
});

caseInBulk(['err.not-exists.computed-field'], {
  setup: [{ type: 'track_table', args: { table: item } }],
  member: { type: 'drop_computed_field', args: { table: item, name: 'ghost' } },
  code: 'not-exists',
  error: 'computed field "ghost" does not exist',
  path: '$.args.name',
});

caseInBulk(['err.constraint-violation.computed-field-column'], {
  setup: [{ type: 'track_table', args: { table: item } }],
  member: {
    type: 'add_computed_field',
    args: { table: item, name: 'name', definition: { function: { schema: 'bulk_refusals', name: 'item_label' } } },
  },
  code: 'constraint-violation',
  error: 'field definition conflicts with postgres column',
  path: '$.args',
  internal: [
    {
      type: 'computed_field',
      reason: 'field definition conflicts with postgres column',
      definition: { definition: { function: { schema: 'bulk_refusals', name: 'item_label' }, table_argument: null }, name: 'name', comment: null, table: item },
    },
  ],
});

caseInBulk(['err.already-exists.query-collection'], {
  setup: [{ type: 'create_query_collection', args: collection('app') }],
  member: { type: 'create_query_collection', args: collection('app') },
  code: 'already-exists',
  error: 'query collection with name "app" already exists',
  path: '$.args',
});

caseInBulk(['err.already-exists.saved-query'], {
  setup: [{ type: 'create_query_collection', args: collection('app') }],
  member: { type: 'add_query_to_collection', args: { collection_name: 'app', query_name: 'items', query: 'query items { x }' } },
  code: 'already-exists',
  error: 'query with name "items" already exists in collection "app"',
  path: '$.args',
});

caseInBulk(['err.already-exists.allowlist'], {
  setup: [
    { type: 'create_query_collection', args: collection('app') },
    { type: 'add_collection_to_allowlist', args: { collection: 'app' } },
  ],
  member: { type: 'add_collection_to_allowlist', args: { collection: 'app' } },
  code: 'already-exists',
  error: 'collection "app" already exists in the allowlist',
  path: '$.args',
});

caseInBulk(['err.not-exists.allowlist'], {
  setup: [{ type: 'create_query_collection', args: collection('app') }],
  member: { type: 'drop_collection_from_allowlist', args: { collection: 'app' } },
  code: 'not-exists',
  error: 'collection "app" does not exist in the allowlist',
  path: '$.args',
});

caseInBulk(['err.not-exists.rest-endpoint'], {
  setup: [],
  member: { type: 'drop_rest_endpoint', args: { name: 'items' } },
  code: 'not-exists',
  error: 'REST endpoint with name "items" does not exist',
  path: '$.args',
});

caseInBulk(['err.already-exists.event-trigger'], {
  setup: [
    { type: 'track_table', args: { table: item } },
    { type: 'create_event_trigger', args: trigger('on_item') },
  ],
  member: { type: 'create_event_trigger', args: trigger('on_item') },
  code: 'already-exists',
  error: 'event trigger with name "on_item" already exists',
  path: '$.args',
});

caseInBulk(['err.parse-failed.event-trigger-name'], {
  setup: [{ type: 'track_table', args: { table: item } }],
  member: { type: 'create_event_trigger', args: trigger('bad name!') },
  code: 'parse-failed',
  error: 'event trigger name "bad name!" must be 1 to 42 letters, digits, _ or -',
  path: '$.args',
});

caseInBulk(['err.parse-failed.event-trigger-operations'], {
  setup: [{ type: 'track_table', args: { table: item } }],
  member: { type: 'create_event_trigger', args: { name: 'nothing', table: item, webhook: hook } },
  code: 'parse-failed',
  error: 'event trigger "nothing" has no operation: give insert, update, delete or enable_manual',
  path: '$.args',
});

caseInBulk(['err.parse-failed.cron-schedule'], {
  setup: [],
  member: { type: 'create_cron_trigger', args: cron('nightly', '0 0 * *') },
  code: 'parse-failed',
  error: 'invalid cron schedule "0 0 * *": five fields are expected, not 4',
  path: '$.args.schedule',
});

caseInBulk(['err.already-exists.cron-trigger'], {
  setup: [{ type: 'create_cron_trigger', args: cron('nightly') }],
  member: { type: 'create_cron_trigger', args: cron('nightly', '5 0 * * *') },
  code: 'already-exists',
  error: 'cron trigger with name "nightly" already exists',
  path: '$.args',
});

caseInBulk(['err.not-exists.cron-trigger'], {
  setup: [],
  member: { type: 'delete_cron_trigger', args: { name: 'nightly' } },
  code: 'not-exists',
  error: 'cron trigger with name "nightly" does not exist',
  path: '$.args',
});

caseInBulk(['err.not-exists.remote-schema-removed'], {
  setup: [],
  member: { type: 'remove_remote_schema', args: { name: 'weather' } },
  code: 'not-exists',
  error: 'no such remote schema',
  path: '$.args',
});

caseInBulk(['err.not-exists.remote-schema'], {
  setup: [],
  member: { type: 'reload_remote_schema', args: { name: 'weather' } },
  code: 'not-exists',
  error: 'remote schema with name "weather" does not exist',
  path: '$.args',
});

caseInBulk(['err.already-exists.action'], {
  setup: [
    { type: 'set_custom_types', args: customTypes },
    { type: 'create_action', args: action('quote') },
  ],
  member: { type: 'create_action', args: action('quote') },
  code: 'already-exists',
  error: 'action with name "quote" already exists',
  path: '$.args',
});

caseInBulk(['err.not-exists.action'], {
  setup: [],
  member: { type: 'drop_action', args: { name: 'quote' } },
  code: 'not-exists',
  error: 'action with name "quote" does not exist',
  path: '$.args',
});

caseInBulk(['err.already-exists.action-permission'], {
  setup: [
    { type: 'set_custom_types', args: customTypes },
    { type: 'create_action', args: action('quote') },
    { type: 'create_action_permission', args: { action: 'quote', role: 'user' } },
  ],
  member: { type: 'create_action_permission', args: { action: 'quote', role: 'user' } },
  code: 'already-exists',
  error: 'permission for role "user" is already defined on "quote"',
  path: '$.args',
});

caseInBulk(['err.not-exists.action-permission'], {
  setup: [
    { type: 'set_custom_types', args: customTypes },
    { type: 'create_action', args: action('quote') },
  ],
  member: { type: 'drop_action_permission', args: { action: 'quote', role: 'user' } },
  code: 'not-exists',
  error: 'permission for role: "user" is not defined on "quote"',
  path: '$.args',
});

caseInBulk(['err.constraint-violation.admin-action-permission'], {
  setup: [
    { type: 'set_custom_types', args: customTypes },
    { type: 'create_action', args: action('quote') },
  ],
  member: { type: 'create_action_permission', args: { action: 'quote', role: 'admin' } },
  code: 'constraint-violation',
  error: 'in action "quote": cannot define permission for admin role',
  path: '$.args',
});

caseInBulk(['err.not-supported.function-arguments'], {
  setup: [{ type: 'track_table', args: { table: item } }],
  member: { type: 'track_function', args: { schema: 'bulk_refusals', name: 'pairs' } },
  code: 'not-supported',
  error: 'function "bulk_refusals.pairs" cannot be tracked: all its arguments must be IN arguments',
  path: '$.args',
});

caseInBulk(['err.not-supported.function-permissions-inferred'], {
  setup: [
    { type: 'track_table', args: { table: item } },
    { type: 'track_function', args: search },
  ],
  member: { type: 'pg_create_function_permission', args: { function: search, role: 'user' } },
  code: 'not-supported',
  error: 'function permissions can only be added when ENGINE_GRAPHQL_INFER_FUNCTION_PERMISSIONS is false',
  path: '$.args',
});

caseInBulk(['err.constraint-violation.computed-field'], {
  setup: [{ type: 'track_table', args: { table: item } }],
  member: { type: 'add_computed_field', args: { table: item, name: 'tags', definition: { function: { schema: 'bulk_refusals', name: 'item_tags' } } } },
  code: 'constraint-violation',
  error:
    'in table "bulk_refusals.item": in computed field "tags": function "bulk_refusals.item_tags" cannot define a computed field: it must return a base type or SETOF a tracked table, but returns SETOF text',
  path: '$.args',
});

caseInBulk(['err.not-supported.computed-field-table-argument'], {
  setup: [{ type: 'track_table', args: { table: item } }],
  member: { type: 'add_computed_field', args: { table: item, name: 'label', definition: { function: { schema: 'bulk_refusals', name: 'label_of' } } } },
  code: 'constraint-violation',
  error:
    'in table "bulk_refusals.item": in computed field "label": function "bulk_refusals.label_of" cannot define a computed field of table "bulk_refusals.item": its first argument does not take its rows',
  path: '$.args',
});

caseInBulk(['err.already-exists.rest-endpoint'], {
  setup: [
    { type: 'track_table', args: { table: item } },
    { type: 'create_query_collection', args: collection('app') },
    { type: 'create_rest_endpoint', args: restEndpoint('items', 'items') },
  ],
  member: { type: 'create_rest_endpoint', args: restEndpoint('items', 'other') },
  code: 'already-exists',
  error: 'REST endpoint with name "items" already exists',
  path: '$.args',
});

caseInBulk(['err.validation-failed.rest-url'], {
  setup: [
    { type: 'track_table', args: { table: item } },
    { type: 'create_query_collection', args: collection('app') },
  ],
  member: { type: 'create_rest_endpoint', args: restEndpoint('items', 'a//b') },
  code: 'validation-failed',
  error: 'invalid REST endpoint url "a//b": it has an empty segment',
  path: '$.args.url',
});

caseInBulk(['err.not-supported.manual-invocation'], {
  setup: [
    { type: 'track_table', args: { table: item } },
    { type: 'create_event_trigger', args: trigger('on_item') },
  ],
  member: { type: 'invoke_event_trigger', args: { name: 'on_item', payload: {} } },
  code: 'not-supported',
  error: 'event trigger "on_item" cannot be invoked by hand: enable_manual is false',
  path: '$.args',
});

caseInBulk(['err.parse-failed.schedule-at'], {
  setup: [],
  member: { type: 'create_scheduled_event', args: { webhook: hook, schedule_at: 'tomorrow' } },
  code: 'parse-failed',
  error: 'schedule_at "tomorrow" is not an ISO 8601 time with a time zone',
  path: '$.args.schedule_at',
});

caseInBulk(['err.not-exists.scheduled-event'], {
  setup: [],
  member: { type: 'delete_scheduled_event', args: { type: 'one_off', event_id: '5f0e1b54-0c55-4a4e-9b52-6d1f3c4c2f10' } },
  code: 'not-exists',
  error: 'scheduled event "5f0e1b54-0c55-4a4e-9b52-6d1f3c4c2f10" does not exist or has happened',
  path: '$.args',
});

caseInBulk(['err.constraint-violation.custom-types'], {
  setup: [],
  member: { type: 'set_custom_types', args: { objects: [{ name: 'O', fields: [{ name: 'f', type: 'Nope' }] }] } },
  code: 'constraint-violation',
  error: 'invalid custom types: field "f" of "O": the type "Nope" is not defined',
  path: '$.args',
});

caseInBulk(['err.validation-failed.saved-query'], {
  setup: [{ type: 'create_query_collection', args: collection('app') }],
  member: { type: 'add_query_to_collection', args: { collection_name: 'app', query_name: 'two', query: 'query a { x } query b { y }' } },
  code: 'validation-failed',
  error: 'query "two" of collection "app" is not a GraphQL document with one operation: 2 operations',
  path: '$.args',
});

caseInBulk(['err.validation-failed.rest-variable'], {
  setup: [
    { type: 'track_table', args: { table: item } },
    { type: 'create_query_collection', args: collection('app') },
  ],
  member: { type: 'create_rest_endpoint', args: restEndpoint('items', 'items/:since') },
  code: 'validation-failed',
  error: 'the url "items/:since" binds "since", which query "items" does not declare',
  path: '$.args.url',
});

caseInBulk(['err.validation-failed.rest-get-mutation'], {
  setup: [
    { type: 'track_table', args: { table: item } },
    { type: 'create_query_collection', args: collection('app') },
    { type: 'add_query_to_collection', args: { collection_name: 'app', query_name: 'add', query: ADD_ITEM } },
  ],
  member: {
    type: 'create_rest_endpoint',
    args: { name: 'add', url: 'add', methods: ['GET'], definition: { query: { collection_name: 'app', query_name: 'add' } } },
  },
  code: 'validation-failed',
  error: 'REST endpoint "add" serves a mutation and cannot take GET',
  path: '$.args.methods',
});

caseInBulk(['err.already-exists.query-template'], {
  setup: [
    { type: 'track_table', args: { table: item } },
    { type: 'create_query_collection', args: collection('app') },
    { type: 'create_rest_endpoint', args: restEndpoint('items', 'items') },
  ],
  member: { type: 'create_rest_endpoint', args: restEndpoint('again', 'items') },
  code: 'already-exists',
  error: 'the query template already exists "items"',
  path: '$.args',
});

caseInBulk(['err.constraint-violation.computed-field-permission'], {
  setup: [
    { type: 'track_table', args: { table: item } },
    { type: 'add_computed_field', args: { table: item, name: 'same', definition: { function: { schema: 'bulk_refusals', name: 'same_items' } } } },
  ],
  member: { type: 'create_select_permission', args: { table: item, role: 'user', permission: { columns: ['id'], computed_fields: ['same'], filter: {} } } },
  code: 'constraint-violation',
  error:
    'in table "bulk_refusals.item": in permission for role "user": select permissions on computed field "same" are auto-derived from the permissions on its returning table "bulk_refusals.item" and cannot be specified manually',
  path: '$.args',
});

caseInBulk(['err.constraint-violation.enum-table'], {
  setup: [{ type: 'track_table', args: { table: item } }],
  member: { type: 'set_table_is_enum', args: { table: item, is_enum: true } },
  code: 'constraint-violation',
  error:
    'the table "bulk_refusals.item" cannot be used as an enum for the following reasons:\n' +
    '  • the table’s primary key ("id") must have type "text", not type "integer"\n' +
    '  • the table must have exactly one primary key and optionally one comment column, not 2 columns (id, name)\n',
  path: '$.args',
});

caseInBulk(['err.not-exists.source'], {
  setup: [],
  member: { type: 'pg_track_table', args: { source: 'analytics', table: item } },
  code: 'not-exists',
  error: 'source with name "analytics" does not exist',
  path: '$.args',
});

caseInBulk(['dec.delete-permission.filter'], {
  setup: [{ type: 'track_table', args: { table: item } }],
  member: { type: 'create_delete_permission', args: { table: item, role: 'user', permission: {} } },
  code: 'parse-failed',
  error: 'key "filter" not found',
  path: '$.args.permission',
});

caseInBulk(['err.parse-failed.unknown-operation-near'], {
  setup: [],
  member: { type: 'trak_table', args: { table: item } },
  code: 'parse-failed',
  error: 'unknown operation type : trak_table; did you mean track_table?',
  path: '$.type',
});

caseInBulk(['err.parse-failed.unsupported-operation-version'], {
  setup: [],
  member: { type: 'track_table', version: 3, args: { table: item } },
  code: 'parse-failed',
  error: 'unsupported version 3 for track_table; supported: 1, 2',
  path: '$.version',
});

caseInBulk(['err.constraint-error.several-foreign-keys'], {
  setup: [
    { type: 'track_table', args: { table: { schema: 'bulk_refusals', name: 'pair' } } },
    { type: 'track_table', args: { table: { schema: 'bulk_refusals', name: 'other' } } },
  ],
  member: {
    type: 'create_object_relationship',
    args: { table: { schema: 'bulk_refusals', name: 'pair' }, name: 'other', using: { foreign_key_constraint_on: 'other_id' } },
  },
  code: 'constraint-error',
  error: 'more than one foreign key constraint exists on the given column',
  path: '$.args',
});

test(
  covers(
    [
      'op.bulk',
      'op.add_existing_table_or_view',
      'op.set_table_custom_fields',
      'op.drop_computed_field',
      'op.drop_insert_permission',
      'op.create_delete_permission',
      'op.drop_delete_permission',
      'op.drop_query_from_collection',
      'op.drop_collection_from_allowlist',
      'op.drop_rest_endpoint',
      'op.drop_query_collection',
      'op.delete_cron_trigger',
      'op.clear_metadata',
    ],
    'metadata built and taken apart again in bulks: each member sees the ones before it, and the export after each bulk is all of them',
  ),
  async () => {
    const bulk = async (...members: { type: string; args: unknown }[]) => {
      const r = await target.metadata({ type: 'bulk', args: members });
      expectResponse(
        r,
        200,
        members.map(() => ({ message: 'success' })),
      );
    };
    // The collection's query reads the table by its custom root field.
    const app = { name: 'app', definition: { queries: [{ name: 'items', query: 'query items { items { id } }' }] } };
    const label = { name: 'label', definition: { function: { schema: 'bulk_refusals', name: 'item_label' } } };
    await bulk(
      { type: 'add_existing_table_or_view', args: item },
      { type: 'set_table_custom_fields', args: { table: item, custom_root_fields: { select: 'items' }, custom_column_names: { name: 'title' } } },
      { type: 'add_computed_field', args: { table: item, ...label } },
      { type: 'create_insert_permission', args: { table: item, role: 'user', permission: { columns: ['id'], check: {} } } },
      { type: 'create_delete_permission', args: { table: item, role: 'user', permission: { filter: { id: { _eq: 'X-Engine-User-Id' } } } } },
      { type: 'create_query_collection', args: app },
      { type: 'add_query_to_collection', args: { collection_name: 'app', query_name: 'first', query: 'query first { items(limit: 1) { id } }' } },
      { type: 'add_collection_to_allowlist', args: { collection: 'app' } },
      { type: 'create_rest_endpoint', args: restEndpoint('items', 'items') },
      { type: 'create_cron_trigger', args: cron('nightly') },
    );
    const built = await exported();
    expect(built).toEqual(
      branded({
        version: 2,
        tables: [
          {
            table: item,
            configuration: { custom_root_fields: { select: 'items' }, custom_column_names: { name: 'title' } },
            computed_fields: [label],
            insert_permissions: [{ role: 'user', permission: { columns: ['id'], check: {} } }],
            delete_permissions: [{ role: 'user', permission: { filter: { id: { _eq: 'X-Engine-User-Id' } } } }],
          },
        ],
        query_collections: [
          {
            name: 'app',
            definition: {
              queries: [
                { name: 'items', query: 'query items { items { id } }' },
                { name: 'first', query: 'query first { items(limit: 1) { id } }' },
              ],
            },
          },
        ],
        allowlist: [{ collection: 'app' }],
        rest_endpoints: [restEndpoint('items', 'items')],
        // Exported with the retry defaults (decision dec.cron.form).
        cron_triggers: [{ ...cron('nightly'), retry_conf: { num_retries: 0, retry_interval_seconds: 10, timeout_seconds: 60, tolerance_seconds: 21600 } }],
      }),
    );
    await bulk(
      { type: 'drop_computed_field', args: { table: item, name: 'label' } },
      { type: 'drop_insert_permission', args: { table: item, role: 'user' } },
      { type: 'drop_delete_permission', args: { table: item, role: 'user' } },
      { type: 'drop_rest_endpoint', args: { name: 'items' } },
      { type: 'drop_collection_from_allowlist', args: { collection: 'app' } },
      { type: 'drop_query_from_collection', args: { collection_name: 'app', query_name: 'first' } },
      { type: 'delete_cron_trigger', args: { name: 'nightly' } },
    );
    expect(await exported()).toEqual({
      version: 2,
      tables: [{ table: item, configuration: { custom_root_fields: { select: 'items' }, custom_column_names: { name: 'title' } } }],
      query_collections: [app],
    });
    await bulk(
      { type: 'drop_query_collection', args: { collection: 'app' } },
      { type: 'clear_metadata', args: {} },
      { type: 'add_existing_table_or_view', args: item },
    );
    expect(await exported()).toEqual({ version: 2, tables: [{ table: item }] });
  },
);

/**
 * run_sql that a tracked object forbids, inside a bulk at /v1/query after a run_sql that succeeds:
 * the whole bulk is refused at the member's place, the table the first member made is gone, and
 * the database and the metadata are as before. `ids` names the refusal.
 */
function caseInSqlBulk(ids: [string], setup: Row['setup'], statement: string, answer: { code: string; error: string }): void {
  test(covers(['op.bulk', 'op.run_sql', ...ids], `run_sql in a bulk after one that succeeds: ${statement}`), async () => {
    for (const step of setup) expectResponse(await target.metadata(step), 200);
    const before = await exported();
    const columns =
      "select table_name::text as t, column_name::text as c, data_type::text as d from information_schema.columns where table_schema = 'bulk_refusals' order by 1, 2";
    const columnsBefore = await target.sql(columns);
    const bulk = [
      { type: 'run_sql', args: { sql: 'create table bulk_refusals.probe (id int)' } },
      { type: 'run_sql', args: { sql: statement } },
    ];
    expectResponse(await target.metadata({ type: 'bulk', args: bulk }, { endpoint: '/v1/query' }), 400, { ...answer, path: '$.args[1].args' });
    expect(await target.sql(columns)).toEqual(columnsBefore);
    expect(await exported()).toEqual(before);
  });
}

caseInSqlBulk(['err.not-supported.table-rename'], [{ type: 'track_table', args: { table: item } }], 'alter table bulk_refusals.item rename to thing', {
  code: 'not-supported',
  error: 'table renames are not yet supported : "bulk_refusals.item"',
});

caseInSqlBulk(
  ['err.already-exists.relationship-named-column'],
  [
    { type: 'track_table', args: { table: item } },
    { type: 'track_table', args: { table: { schema: 'bulk_refusals', name: 'other' } } },
    {
      type: 'create_object_relationship',
      args: {
        table: item,
        name: 'twin',
        using: { manual_configuration: { remote_table: { schema: 'bulk_refusals', name: 'other' }, column_mapping: { id: 'id' } } },
      },
    },
  ],
  'alter table bulk_refusals.item add column twin text',
  { code: 'already-exists', error: 'cannot add column "twin" in table "bulk_refusals.item" as a relationship with the name already exists' },
);

caseInSqlBulk(
  ['err.dependency-error.column-type'],
  [
    { type: 'track_table', args: { table: item } },
    { type: 'create_select_permission', args: { table: item, role: 'user', permission: { columns: ['id'], filter: { name: { _eq: 'x' } } } } },
  ],
  'alter table bulk_refusals.item alter column name type varchar(20)',
  {
    code: 'dependency-error',
    error:
      'cannot change type of column "name" in table "bulk_refusals.item" because of the following dependencies : permission bulk_refusals.item.user.select',
  },
);
