// A run leaves the target as it found it: its metadata is exported before the cases run and
// replaced back afterwards, what the cases made in its database (schemas, extensions, and
// tables, views, functions and types in `public`) is dropped, and its catalog's logs are put back
// as they were (catalogLogs.ts). A target whose metadata is not empty,
// or whose database holds a schema the cases replace, is refused unless --allow-clear is given.
import { isDeepStrictEqual } from 'node:util';
import { Client } from 'pg';
import { readCatalogLogs, restoreCatalogLogs, type SavedLog } from './catalogLogs';

/** The schemas the cases and fixtures drop and create (`drop schema if exists … cascade`). */
export const SUITE_SCHEMAS: readonly string[] = [
  'authecho',
  'bench',
  'ceqx',
  'compat',
  'blog',
  'consistency',
  'bulk_refusals',
  'chat',
  'chg',
  'cost',
  'cost_fresh',
  'engine_diff',
  'evt',
  'exord',
  'exord_a',
  'fuzz',
  'fuzz_bad',
  'fuzz_tx',
  'fuzznest',
  'fuzzrel',
  'fnargs',
  'fuzzrole',
  'incons',
  'library',
  'music',
  'naming_db',
  'oddnames',
  'permtypes',
  'recreated',
  'relx',
  'rsv',
  'rv',
  'scale',
  'session_probe',
  'shop',
  'store',
  'shopfn',
  'shopfn_twin',
  'twin_a',
  'twin_b',
  'validity',
];

/** What a target held before a run: its metadata and the database objects to keep. */
export interface TargetState {
  metadata: Record<string, unknown>;
  /** Object ids of the database objects that were there: anything else afterwards is the suite's. */
  kept: { schemas: string[]; extensions: string[]; relations: string[]; functions: string[]; types: string[] };
  /** The suite's schemas that were already in the database (a run replaces them). */
  clashing: string[];
  /** The logs of the target's catalog, put back afterwards (catalogLogs.ts); absent: not read. */
  logs?: SavedLog[];
}

export interface TargetConnection {
  target: string;
  database: string;
  headers: Record<string, string>;
}

const ARRAYS: [string, string, string][] = [
  ['tables', 'table', 'tables'],
  ['functions', 'function', 'functions'],
  ['remote_schemas', 'remote schema', 'remote schemas'],
  ['actions', 'action', 'actions'],
  ['query_collections', 'query collection', 'query collections'],
  ['allowlist', 'allow-list entry', 'allow-list entries'],
  ['rest_endpoints', 'REST endpoint', 'REST endpoints'],
  ['cron_triggers', 'cron trigger', 'cron triggers'],
  ['inherited_roles', 'inherited role', 'inherited roles'],
];

/** What a metadata document holds, as "2 tables, 1 remote schema"; empty when it holds nothing. */
export function metadataContents(document: Record<string, unknown>): string[] {
  const sources = Array.isArray(document.sources) ? (document.sources as Record<string, unknown>[]) : [document];
  const count = (key: string) =>
    key === 'tables' || key === 'functions'
      ? sources.reduce((n, s) => n + (Array.isArray(s[key]) ? (s[key] as unknown[]).length : 0), 0)
      : Array.isArray(document[key])
        ? (document[key] as unknown[]).length
        : 0;
  const parts = ARRAYS.map(([key, one, many]) => [count(key), one, many] as const)
    .filter(([n]) => n > 0)
    .map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
  const types = (document.custom_types ?? {}) as Record<string, unknown>;
  const typeCount = Object.values(types).reduce<number>((n, v) => n + (Array.isArray(v) ? v.length : 0), 0);
  if (typeCount > 0) parts.push(`${typeCount} custom ${typeCount === 1 ? 'type' : 'types'}`);
  return parts;
}

/** Why a run must not start without --allow-clear, or undefined when the target is empty. */
export function refusalOf(state: TargetState): string | undefined {
  const contents = metadataContents(state.metadata);
  const reasons = [
    ...(contents.length > 0 ? [`its metadata is not empty (${contents.join(', ')})`] : []),
    ...(state.clashing.length > 0 ? [`its database has schemas the cases replace (${state.clashing.join(', ')})`] : []),
  ];
  if (reasons.length === 0) return undefined;
  return (
    `the target is in use: ${reasons.join('; ')}. The cases clear the metadata and replace those schemas while they run; ` +
    'the metadata is restored afterwards, the schemas are not. Give --allow-clear to run anyway'
  );
}

async function metadataCall(connection: TargetConnection, envelope: unknown): Promise<unknown> {
  const response = await fetch(`${connection.target}/v1/metadata`, {
    method: 'POST',
    headers: { ...connection.headers, 'content-type': 'application/json' },
    body: JSON.stringify(envelope),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${(envelope as { type: string }).type} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as unknown;
}

/** `work` on a client of the database at `url`, closed afterwards. */
export async function onDatabase<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The objects of the database a run may drop afterwards if they are new: their ids now. */
const OBJECTS_NOW = `
  select
    (select coalesce(jsonb_agg(oid::text), '[]') from pg_namespace where nspname not like 'pg\\_%' and nspname <> 'information_schema') as schemas,
    (select coalesce(jsonb_agg(oid::text), '[]') from pg_extension) as extensions,
    (select coalesce(jsonb_agg(oid::text), '[]') from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'p', 'v', 'm', 'f')) as relations,
    (select coalesce(jsonb_agg(oid::text), '[]') from pg_proc where pronamespace = 'public'::regnamespace) as functions,
    (select coalesce(jsonb_agg(oid::text), '[]') from pg_type where typnamespace = 'public'::regnamespace and typtype in ('c', 'd', 'e', 'r')) as types,
    (select coalesce(jsonb_agg(nspname order by nspname), '[]') from pg_namespace where nspname = any($1::text[])) as clashing`;

export async function readTargetState(connection: TargetConnection): Promise<TargetState> {
  const metadata = (await metadataCall(connection, { type: 'export_metadata', version: 1, args: {} })) as Record<string, unknown>;
  const [row, logs] = await onDatabase(connection.database, async (c) => [
    (await c.query(OBJECTS_NOW, [SUITE_SCHEMAS])).rows[0] as Record<string, string[]>,
    await readCatalogLogs(c),
  ]);
  const { clashing, ...kept } = row;
  return { metadata, kept: kept as TargetState['kept'], clashing: clashing!, logs };
}

/**
 * Drop what is not in the kept list: new schemas and extensions, and new tables, views, functions
 * and types in public (those of an extension go with it). PostgreSQL quotes every name (format's
 * %I and the reg* types); the list is a parameter.
 */
const DROP_NEW_OBJECTS = `
do $drop$
declare
  kept jsonb := current_setting('engine_conformance.kept')::jsonb;
  statement text;
begin
  -- Every statement is written before any runs: a drop may take others' objects with it (cascade).
  foreach statement in array array(
    select format('drop schema if exists %I cascade', nspname) from pg_namespace
    where nspname not like 'pg\\_%' and nspname <> 'information_schema' and not kept->'schemas' ? oid::text
    union all
    select format('drop extension if exists %I cascade', extname) from pg_extension where not kept->'extensions' ? oid::text
    union all
    select format(case c.relkind when 'v' then 'drop view if exists %s cascade' when 'm' then 'drop materialized view if exists %s cascade'
                                 when 'f' then 'drop foreign table if exists %s cascade' else 'drop table if exists %s cascade' end, c.oid::regclass)
    from pg_class c
    where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f') and not kept->'relations' ? c.oid::text
    union all
    select format(case p.prokind when 'p' then 'drop procedure if exists %s cascade' when 'a' then 'drop aggregate if exists %s cascade'
                                 else 'drop function if exists %s cascade' end, p.oid::regprocedure)
    from pg_proc p
    where p.pronamespace = 'public'::regnamespace and not kept->'functions' ? p.oid::text
      and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
    union all
    select format(case t.typtype when 'd' then 'drop domain if exists %s cascade' else 'drop type if exists %s cascade' end, t.oid::regtype)
    from pg_type t
    where t.typnamespace = 'public'::regnamespace and t.typtype in ('c', 'd', 'e', 'r') and not kept->'types' ? t.oid::text
      and (t.typrelid = 0 or (select relkind from pg_class where oid = t.typrelid) = 'c')
      and not exists (select 1 from pg_depend d where d.classid = 'pg_type'::regclass and d.objid = t.oid and d.deptype = 'e')
  ) loop
    execute statement;
  end loop;
end
$drop$`;

/** Put the target back as it was: the suite's objects dropped, the metadata replaced back; says what it did. */
export async function restoreTarget(connection: TargetConnection, before: TargetState): Promise<string> {
  // The suite's event triggers and tracking go first, so that its tables can be dropped plainly.
  await metadataCall(connection, { type: 'clear_metadata', args: {} });
  await onDatabase(connection.database, async (c) => {
    await c.query("select set_config('engine_conformance.kept', $1, false)", [JSON.stringify(before.kept)]);
    await c.query(DROP_NEW_OBJECTS);
  });
  await metadataCall(connection, { type: 'reload_metadata', args: {} });
  await metadataCall(connection, {
    type: 'replace_metadata',
    version: 2,
    args: { allow_inconsistent_metadata: true, metadata: before.metadata },
  });
  const after = (await metadataCall(connection, { type: 'export_metadata', version: 1, args: {} })) as Record<string, unknown>;
  // With the user's triggers back, their history is too; the run's rows go (catalogLogs.ts).
  const logs = before.logs?.length ? await onDatabase(connection.database, (c) => restoreCatalogLogs(c, before.logs!)) : undefined;
  const contents = metadataContents(before.metadata);
  const what = contents.length > 0 ? contents.join(', ') : 'empty';
  const history = logs ? `, its catalog's logs as they were (${logs.removed} rows of the run removed, ${logs.restored} put back)` : '';
  if (!isDeepStrictEqual(after, before.metadata)) {
    return `the target's metadata differs from what it was before the run (${what}); the metadata from before is in the report directory`;
  }
  // SPEC.md answers the list itself; the engine it comes from wraps it in {inconsistent_objects}.
  const inconsistent = (await metadataCall(connection, { type: 'get_inconsistent_metadata', args: {} })) as
    { reason?: unknown }[] | { inconsistent_objects?: { reason?: unknown }[] };
  const objects = Array.isArray(inconsistent) ? inconsistent : (inconsistent.inconsistent_objects ?? []);
  if (objects.length > 0) {
    return (
      `the target's metadata (${what}) is restored, but ${objects.length} of its objects ${objects.length === 1 ? 'is' : 'are'} inconsistent now: ` +
      // Each reason without the engine's "Inconsistent object: ", which the sentence says already.
      objects.map((o) => String(o.reason).replace(/^Inconsistent object: /, '')).join('; ')
    );
  }
  return `the target is as it was found: its metadata (${what}) restored, the objects the cases made dropped${history}`;
}
