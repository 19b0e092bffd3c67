// Generators for the metadata-replacement fuzzer: a database schema (two to four tables with
// foreign keys between them) and valid metadata documents over it in export form (tables in a
// generated order, custom names, object and array relationships by foreign key and by manual
// mapping, the four permission kinds with generated BoolExps; cron triggers; remote schemas with role
// permissions: generated subsets of a remote's SDL with presets, and customizations). The objects that
// make such a document invalid are in metadataInconsistencies.ts (the database lacks them) and
// metadataRefusals.ts (the arguments refuse them); tracked functions in fuzzFunctions.ts.
import fc from 'fast-check';
import type { FunctionEntry } from './fuzzFunctions';
import type { TopLevelParts } from './topLevelParts';
import { sourceCustomization } from './sourceCustomizations';

export const FUZZ_SCHEMA = 'fzmeta';

export type ColumnType = 'integer' | 'text' | 'boolean';
export interface FuzzColumn {
  name: string;
  type: ColumnType;
}
export interface FuzzTable {
  name: string;
  columns: FuzzColumn[];
  /** Foreign keys: `<table>_id` columns referencing `<table>.id`. */
  references: string[];
}

const TABLE_NAMES = ['t0', 't1', 't2', 't3'] as const;
const PLAIN_COLUMNS: FuzzColumn[] = [
  { name: 'n', type: 'integer' },
  { name: 'label', type: 'text' },
  { name: 'flag', type: 'boolean' },
];

/** Tables t0… in creation order; each may reference the ones before it. */
export const fuzzSchema: fc.Arbitrary<FuzzTable[]> = fc.integer({ min: 2, max: 4 }).chain((count) =>
  fc.tuple(
    ...TABLE_NAMES.slice(0, count).map((name, i) =>
      fc.record({ plain: fc.subarray(PLAIN_COLUMNS), references: fc.subarray([...TABLE_NAMES.slice(0, i)]) }).map(({ plain, references }): FuzzTable => ({
        name,
        columns: [{ name: 'id', type: 'integer' }, ...plain, ...references.map((r) => ({ name: `${r}_id`, type: 'integer' as const }))],
        references,
      })),
    ),
  ),
);

/** The SQL that creates the schema (names come from fixed lists above). */
export const schemaSql = (tables: readonly FuzzTable[]) =>
  [
    `drop schema if exists ${FUZZ_SCHEMA} cascade; create schema ${FUZZ_SCHEMA};`,
    ...tables.map((t) => {
      const columns = t.columns.map((c) =>
        c.name === 'id'
          ? 'id integer primary key'
          : `${c.name} ${c.type}${c.name.endsWith('_id') ? ` references ${FUZZ_SCHEMA}.${c.name.slice(0, -3)} (id)` : ''}`,
      );
      return `create table ${FUZZ_SCHEMA}.${t.name} (${columns.join(', ')});`;
    }),
  ].join('\n');

export const qualified = (name: string) => ({ schema: FUZZ_SCHEMA, name });

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Document = {
  version: 2;
  tables: TableEntry[];
  functions?: FunctionEntry[];
  cron_triggers?: Record<string, Json>[];
  remote_schemas?: Record<string, Json>[];
  sources?: Record<string, Json>[];
  /** How the project describes the server's own database (decision dec.metadata.default-source). */
  default_source?: { customization?: Record<string, Json> };
} & TopLevelParts;
export interface TableEntry {
  table: { schema: string; name: string };
  configuration?: Record<string, Json>;
  object_relationships?: Relationship[];
  array_relationships?: Relationship[];
  remote_relationships?: Json[];
  insert_permissions?: Permission[];
  select_permissions?: Permission[];
  update_permissions?: Permission[];
  delete_permissions?: Permission[];
}
export interface Relationship {
  name: string;
  using: Record<string, Json>;
}
export interface Permission {
  role: string;
  permission: Record<string, Json>;
}

/** A relationship of a table as BoolExps see it: its name and the table it leads to. */
interface Edge {
  name: string;
  to: FuzzTable;
}

const ROLES = ['r0', 'r1'] as const;

const valueOf = (type: ColumnType): fc.Arbitrary<Json> =>
  type === 'integer' ? fc.integer({ min: -3, max: 3 }) : type === 'text' ? fc.constantFrom('a', "it's", '%b%', '', 'x-engine-user-id') : fc.boolean();

/** One comparison on one column, in either operator spelling, with a session variable now and then. */
function comparison(table: FuzzTable): fc.Arbitrary<Record<string, Json>> {
  return fc.constantFrom(...table.columns).chain((column) => {
    const value = valueOf(column.type);
    const ops: fc.Arbitrary<Record<string, Json>>[] = [
      fc.record({ op: fc.constantFrom('_eq', '$eq', '_neq', '$ne'), value }).map(({ op, value }) => ({ [op]: value })),
      fc.array(value, { maxLength: 3 }).map((values) => ({ _in: values })),
      fc.boolean().map((b) => ({ _is_null: b })),
    ];
    if (column.type === 'integer') {
      ops.push(fc.record({ op: fc.constantFrom('_gt', '$lte', '_gte', '_lt'), value }).map(({ op, value }) => ({ [op]: value })));
      ops.push(fc.constant({ _eq: 'X-Engine-User-Id' }));
    }
    if (column.type === 'text') ops.push(fc.record({ op: fc.constantFrom('_like', '_ilike', '_nlike'), value }).map(({ op, value }) => ({ [op]: value })));
    return fc.oneof(...ops).map((comparison) => ({ [column.name]: comparison }));
  });
}

/** A BoolExp over a table: comparisons, _and/_or/_not (and $and/$or), {} and one step through a relationship. */
export function boolExp(table: FuzzTable, edges: readonly Edge[]): fc.Arbitrary<Record<string, Json>> {
  const { exp } = fc.letrec<{ exp: Record<string, Json> }>((tie) => ({
    exp: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      comparison(table),
      fc.constant({}),
      fc.record({ op: fc.constantFrom('_and', '_or', '$and', '$or'), list: fc.array(tie('exp'), { maxLength: 2 }) }).map(({ op, list }) => ({ [op]: list })),
      tie('exp').map((e) => ({ _not: e })),
      ...(edges.length
        ? [
            fc
              .constantFrom(...edges)
              .chain((edge) => fc.oneof(comparison(edge.to), fc.constant({})).map((inner): Record<string, Json> => ({ [edge.name]: inner }))),
          ]
        : []),
    ),
  }));
  return exp;
}

const columnsOf = (table: FuzzTable) => table.columns.map((c) => c.name);
const columnList = (table: FuzzTable) => fc.oneof(fc.constant('*' as Json), fc.subarray(columnsOf(table)) as fc.Arbitrary<Json>);
const presets = (table: FuzzTable): fc.Arbitrary<Record<string, Json>> =>
  fc
    .subarray(table.columns.filter((c) => c.name !== 'id'))
    .chain((cs) =>
      fc
        .tuple(
          ...cs.map((c) =>
            c.type === 'integer'
              ? fc.constantFrom<Json>('X-Engine-User-Id', 7)
              : c.type === 'text'
                ? fc.constantFrom<Json>('X-Engine-User-Name', 'preset')
                : fc.constant<Json>(true),
          ),
        )
        .map((values) => Object.fromEntries(cs.map((c, i) => [c.name, values[i]!]))),
    );

const permissions = (roleValue: (role: string) => fc.Arbitrary<Record<string, Json> | undefined>) =>
  fc.tuple(...ROLES.map(roleValue)).map((values) => ROLES.flatMap((role, i) => (values[i] ? [{ role, permission: values[i] }] : [])));

function permissionsOf(table: FuzzTable, edges: readonly Edge[]) {
  const exp = boolExp(table, edges);
  const option = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 3 });
  return fc.record(
    {
      insert_permissions: permissions(() =>
        option(fc.record({ check: exp, columns: columnList(table), set: presets(table), backend_only: fc.boolean() }, { requiredKeys: ['check'] })),
      ),
      select_permissions: permissions(() =>
        option(
          fc.record({ columns: columnList(table), filter: exp, limit: fc.nat(20), allow_aggregations: fc.boolean() }, { requiredKeys: ['columns', 'filter'] }),
        ),
      ),
      update_permissions: permissions(() =>
        option(fc.record({ columns: columnList(table), filter: exp, check: exp, set: presets(table) }, { requiredKeys: ['columns', 'filter'] })),
      ),
      delete_permissions: permissions(() => option(fc.record({ filter: exp }))),
    },
    { requiredKeys: [] },
  );
}

function configurationOf(table: FuzzTable): fc.Arbitrary<Record<string, Json> | undefined> {
  const t = table.name;
  const hasLabel = table.columns.some((c) => c.name === 'label');
  return fc.option(
    fc
      .record(
        {
          custom_name: fc.constant(`${t}_named`),
          custom_root_fields: fc
            .subarray(['select', 'select_by_pk', 'select_aggregate', 'select_stream', 'insert', 'update_by_pk', 'update_many', 'delete'], { minLength: 1 })
            .map((keys) => Object.fromEntries(keys.map((k) => [k, `${t}_${k}_root`]))),
          ...(hasLabel ? { custom_column_names: fc.constant({ label: `${t}_title` }) } : {}),
          // column_config in the form it is exported in: with custom_column_names beside it (dec.table.column-config).
          // (id keeps its name: the checks select it.)
          column_config: fc.constantFrom<Record<string, Json>>(
            { id: { comment: `the key of ${t}` } },
            ...(hasLabel ? [{ label: { custom_name: `${t}_heading`, comment: 'heading' } }] : []),
          ),
        },
        { requiredKeys: [] },
      )
      .map((c) => {
        const config = c.column_config as Record<string, { custom_name?: string }> | undefined;
        if (!config) return c;
        const names = { ...(c.custom_column_names as Record<string, string> | undefined) };
        for (const [column, entry] of Object.entries(config)) if (entry.custom_name) names[column] = entry.custom_name;
        const legacy = c.custom_column_names as Record<string, string> | undefined;
        const merged = { ...Object.fromEntries(Object.entries(legacy ?? {}).map(([column, name]) => [column, { custom_name: name }])), ...config };
        return { ...c, column_config: merged, ...(Object.keys(names).length ? { custom_column_names: names } : {}) };
      })
      .filter((c) => Object.keys(c).length > 0),
    { nil: undefined },
  );
}

/** Cron triggers in export form (retry_conf always written out); yearly schedules, so none fires during a run. */
export const cronTriggers: fc.Arbitrary<Record<string, Json>[]> = fc.subarray(['c0', 'c1', 'c2']).chain((names) =>
  fc.tuple(
    ...names.map((name) =>
      fc.record(
        {
          name: fc.constant(name),
          webhook: fc.constantFrom('http://127.0.0.1:9/cron', 'http://127.0.0.1:9/yearly'),
          schedule: fc.constantFrom('0 0 1 1 *', '30 4 2 3 *', '*/15 2 29 2 *'),
          include_in_metadata: fc.constant(true),
          payload: fc.dictionary(fc.constantFrom('a', 'b'), fc.oneof(fc.integer(), fc.string({ maxLength: 4 }))),
          retry_conf: fc.record({
            num_retries: fc.nat(3),
            retry_interval_seconds: fc.integer({ min: 1, max: 30 }),
            timeout_seconds: fc.integer({ min: 1, max: 60 }),
            tolerance_seconds: fc.integer({ min: 60, max: 21600 }),
          }),
          comment: fc.constantFrom('yearly', ''),
        },
        { requiredKeys: ['name', 'webhook', 'schedule', 'include_in_metadata', 'retry_conf'] },
      ),
    ),
  ),
);

/** The schema of the remote server the generated remote schemas point at. */
export const FUZZ_REMOTE_SDL = `type Query { a: Int, b(x: Int!, y: String): String, c(f: F): [Item] }
type Item { id: Int!, name: String, tags: [String!] }
input F { id: Int, name: String }`;

/** A role's SDL: a generated subset of FUZZ_REMOTE_SDL, with presets (static and session) now and then. */
export const remoteRoleSdl: fc.Arbitrary<string> = fc
  .record({
    fields: fc.subarray(['a', 'b', 'c'] as const, { minLength: 1 }),
    xPreset: fc.constantFrom('', ' @preset(value: 3)', ' @preset(value: "x-engine-user-id")'),
    withY: fc.boolean(),
    item: fc.subarray(['id: Int!', 'name: String', 'tags: [String!]'], { minLength: 1 }),
    filter: fc.subarray(['id: Int', 'name: String', 'name: String @preset(value: "x-engine-user-name")'], { minLength: 1 }),
  })
  .map(({ fields, xPreset, withY, item, filter }) => {
    const query = fields.map((f) => (f === 'a' ? 'a: Int' : f === 'b' ? `b(x: Int!${xPreset}${withY ? ', y: String' : ''}): String` : 'c(f: F): [Item]'));
    // Two spellings of one input field would define it twice: keep the first.
    const inputFields = filter.filter((f, i) => filter.findIndex((g) => g.split(':')[0] === f.split(':')[0]) === i);
    // An input object keeps at least one field the role gives itself.
    if (inputFields.every((f) => f.includes('@preset'))) inputFields.unshift('id: Int');
    return [
      `type Query { ${query.join(', ')} }`,
      ...(fields.includes('c') ? [`type Item { ${item.join(', ')} }`, `input F { ${inputFields.join(', ')} }`] : []),
    ].join('\n');
  });

/** A customization of FUZZ_REMOTE_SDL in export form (empty parts left out), or none. */
const remoteCustomization: fc.Arbitrary<Record<string, Json> | undefined> = fc.option(
  fc
    .record(
      {
        root_fields_namespace: fc.constantFrom('rs', 'remote_0'),
        type_names: fc.oneof(
          fc.record({ prefix: fc.constantFrom('P_', 'Remote') }),
          fc.record({ suffix: fc.constantFrom('_s', '2') }),
          fc.record({ mapping: fc.constant({ Item: 'Article' }) }),
        ),
        field_names: fc.constant([{ parent_type: 'Item', prefix: 'item_', mapping: { id: 'key' } }]),
      },
      { requiredKeys: [] },
    )
    .map((c) => (Object.keys(c).length ? (c as Record<string, Json>) : undefined)),
  { nil: undefined, freq: 2 },
);

/** Remote schemas in export form at `url` (a server answering FUZZ_REMOTE_SDL), with permissions of the fuzz roles. */
export const remoteSchemas = (url: string): fc.Arbitrary<Record<string, Json>[]> =>
  fc.oneof({ arbitrary: fc.constant(['rs0']), weight: 3 }, { arbitrary: fc.constant([]), weight: 1 }).chain((names) =>
    fc.tuple(
      ...names.map((name) =>
        fc
          .record({ roles: fc.subarray([...ROLES]), sdl: fc.tuple(remoteRoleSdl, remoteRoleSdl), customization: remoteCustomization })
          .map(({ roles, sdl, customization }) => ({
            name,
            definition: { url, forward_client_headers: false, timeout_seconds: 60, ...(customization ? { customization } : {}) },
            ...(roles.length ? { permissions: roles.map((role, i) => ({ role, definition: { schema: sdl[i]! } })) } : {}),
          })),
      ),
    ),
  );

/** Remote relationships from a table to rs0 (FUZZ_REMOTE_SDL), by the form they take: to b(x: $id), to c(f: {id: $id}), or the oldest form. */
const REMOTE_RELATIONSHIPS: Record<string, Json> = {
  b: { name: 'rr_b', definition: { to_remote_schema: { remote_schema: 'rs0', lhs_fields: ['id'], remote_field: { b: { arguments: { x: '$id' } } } } } },
  c: {
    name: 'rr_c',
    definition: { to_remote_schema: { remote_schema: 'rs0', lhs_fields: ['id'], remote_field: { c: { arguments: { f: { id: '$id', name: 'n' } } } } } },
  },
  legacy: { name: 'rr_old', definition: { remote_schema: 'rs0', hasura_fields: ['id', 'id'], remote_field: { a: { arguments: {} } } } },
};
const remoteRelationshipForms = fc.array(fc.subarray(Object.keys(REMOTE_RELATIONSHIPS)), { minLength: 4, maxLength: 4 });

/** Sources besides default (decision dec.source.forms), each on the database at `url`, in the configuration forms the engine takes. */
const sourcesAt = (url: string, tables: readonly FuzzTable[]): fc.Arbitrary<Record<string, Json>[]> =>
  fc.shuffledSubarray(['src_a', 'src_b', 'src_c'], { maxLength: 2 }).chain((names) =>
    fc.tuple(
      ...names.map((name) =>
        fc
          .tuple(
            fc.record(
              {
                pool_settings: fc.record(
                  { max_connections: fc.integer({ min: 1, max: 20 }), idle_timeout: fc.integer({ min: 0, max: 600 }), retries: fc.integer({ min: 0, max: 5 }) },
                  { requiredKeys: [] },
                ),
                isolation_level: fc.constantFrom('read-committed', 'repeatable-read', 'serializable'),
                use_prepared_statements: fc.boolean(),
              },
              { requiredKeys: [] },
            ),
            // The same database's tables tracked again in the source, under names of the source's own.
            fc.shuffledSubarray([...tables], { maxLength: Math.min(3, tables.length) }),
            sourceCustomization(name),
          )
          .map(([extra, tracked, customization]): Record<string, Json> => ({
            name,
            kind: 'postgres',
            configuration: { connection_info: { database_url: url, ...extra } },
            tables: tracked.map((t) => ({ table: qualified(t.name), configuration: { custom_name: `${name}_${t.name}` } })),
            ...(customization ? { customization } : {}),
          })),
      ),
    ),
  );

/** For each of the server's own tables: which table of a source (or of its own) a to_source relationship leads to, if any. */
const toSourceChoices = fc.array(fc.record({ target: fc.nat(), array: fc.boolean() }), { minLength: 4, maxLength: 4 });

/** The tables with to_source relationships (decision dec.remote-relationship.to-source), named ts_<source>_<table>, joined on id. */
function withToSource(entries: TableEntry[], sources: readonly Record<string, Json>[], choices: readonly { target: number; array: boolean }[]): TableEntry[] {
  const candidates: [string, TableEntry['table']][] = [
    ...entries.map((e): [string, TableEntry['table']] => ['default', e.table]),
    ...sources.flatMap((s) => (s.tables as unknown as TableEntry[]).map((t): [string, TableEntry['table']] => [s.name as string, t.table])),
  ];
  return entries.map((entry, i) => {
    const choice = choices[i]!;
    const target = candidates[choice.target % (candidates.length + 1)];
    if (!target) return entry;
    const [source, table] = target;
    const rel = {
      name: `ts_${source}_${table.name}`,
      definition: { to_source: { source, table, relationship_type: choice.array ? 'array' : 'object', field_mapping: { id: 'id' } } },
    };
    return { ...entry, remote_relationships: [...(entry.remote_relationships ?? []), rel] };
  });
}

/** A valid document over the schema: a generated subset of its tables, tracked in a generated order (and remote schemas at `remoteUrl`, sources on `sourceUrl`). */
export function fuzzDocument(tables: readonly FuzzTable[], remoteUrl?: string, sourceUrl?: string): fc.Arbitrary<Document> {
  return fc.shuffledSubarray([...tables], { minLength: 1 }).chain((tracked) => {
    const isTracked = (name: string) => tracked.some((t) => t.name === name);
    const entries = tracked.map((table) => {
      const byName = (name: string) => tables.find((t) => t.name === name)!;
      // Object relationships: each key to a tracked table, by its foreign key or by a manual mapping.
      const objectCandidates: [Relationship, Edge][] = table.references.filter(isTracked).flatMap((to): [Relationship, Edge][] => [
        [
          { name: `o_${to}`, using: { foreign_key_constraint_on: `${to}_id` } },
          { name: `o_${to}`, to: byName(to) },
        ],
        [
          { name: `m_${to}`, using: { manual_configuration: { remote_table: qualified(to), column_mapping: { [`${to}_id`]: 'id' } } } },
          { name: `m_${to}`, to: byName(to) },
        ],
      ]);
      // Array relationships: each tracked table whose key points here.
      const arrayCandidates: [Relationship, Edge][] = tracked
        .filter((from) => from.references.includes(table.name))
        .flatMap((from): [Relationship, Edge][] => [
          [
            { name: `a_${from.name}`, using: { foreign_key_constraint_on: { table: qualified(from.name), column: `${table.name}_id` } } },
            { name: `a_${from.name}`, to: from },
          ],
          [
            { name: `ma_${from.name}`, using: { manual_configuration: { remote_table: qualified(from.name), column_mapping: { id: `${table.name}_id` } } } },
            { name: `ma_${from.name}`, to: from },
          ],
        ]);
      return fc.record({ objects: fc.subarray(objectCandidates), arrays: fc.subarray(arrayCandidates) }).chain(({ objects, arrays }) =>
        fc
          .record({
            configuration: configurationOf(table),
            permissions: permissionsOf(
              table,
              [...objects, ...arrays].map(([, e]) => e),
            ),
          })
          .map(({ configuration, permissions }): TableEntry => ({
            table: qualified(table.name),
            ...(configuration ? { configuration } : {}),
            ...(objects.length ? { object_relationships: objects.map(([r]) => r) } : {}),
            ...(arrays.length ? { array_relationships: arrays.map(([r]) => r) } : {}),
            ...Object.fromEntries(Object.entries(permissions).filter(([, list]) => list.length > 0)),
          })),
      );
    });
    return fc
      .tuple(
        fc.tuple(...entries),
        cronTriggers,
        remoteUrl ? remoteSchemas(remoteUrl) : fc.constant<Record<string, Json>[]>([]),
        remoteRelationshipForms,
        sourceUrl ? sourcesAt(sourceUrl, tables) : fc.constant<Record<string, Json>[]>([]),
        toSourceChoices,
      )
      .map(([tablesOfDocument, crons, remotes, forms, sources, choices]): Document => ({
        version: 2,
        // Remote relationships to rs0 (its paths in its own names, under a customization too), and to tables of sources.
        tables: withToSource(
          remotes.length
            ? tablesOfDocument.map((t, i) => (forms[i]!.length ? { ...t, remote_relationships: forms[i]!.map((f) => REMOTE_RELATIONSHIPS[f]!) } : t))
            : tablesOfDocument,
          sources,
          choices,
        ),
        ...(crons.length ? { cron_triggers: crons } : {}),
        ...(remotes.length ? { remote_schemas: remotes } : {}),
        ...(sources.length ? { sources } : {}),
      }));
  });
}

/** The GraphQL name of a table's select root field under its configuration. */
export function selectRootField(entry: TableEntry): string {
  const configuration = entry.configuration as { custom_name?: string; custom_root_fields?: { select?: string } } | undefined;
  return configuration?.custom_root_fields?.select ?? configuration?.custom_name ?? `${entry.table.schema}_${entry.table.name}`;
}

/** The document with its first table changed. */
export const onFirstTable = (document: Document, change: (entry: TableEntry) => TableEntry): Document => ({
  ...document,
  tables: document.tables.map((t, i) => (i === 0 ? change(t) : t)),
});
