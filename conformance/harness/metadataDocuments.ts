// Generators for the metadata-replacement fuzzer: a database schema (two to four tables with
// foreign keys between them) and valid metadata documents over it in export form (tables in a
// generated order, custom names, object and array relationships by foreign key and by manual
// mapping, the four permission kinds with generated BoolExps; cron triggers; remote schemas with role
// permissions: generated subsets of a remote's SDL with presets, and customizations), plus the objects that make such a
// document invalid: some the database lacks (inconsistencies), some the arguments refuse.
import fc from 'fast-check';
import type { FunctionEntry } from './fuzzFunctions';
import type { TopLevelParts } from './topLevelParts';
import { BAD_CUSTOMIZATION, sourceCustomization } from './sourceCustomizations';

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

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
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

/** An object the database lacks, added to a document: kept and reported under allow_inconsistent_metadata. */
export interface Inconsistency {
  kind: string;
  apply: (document: Document) => Document;
  /** The inconsistent object as get_inconsistent_metadata reports it. */
  reported: { type: string; reason: string; definition: Json; name?: string; message?: unknown; source?: string };
  /** The document drop_inconsistent_metadata leaves, when it is not the one before `apply`. */
  afterDrop?: (document: Document) => Document;
}

const onFirstTable = (document: Document, change: (entry: TableEntry) => TableEntry): Document => ({
  ...document,
  tables: document.tables.map((t, i) => (i === 0 ? change(t) : t)),
});

export function inconsistencies(document: Document, sourceUrl = 'postgres://fuzz@127.0.0.1:1/unused'): Inconsistency[] {
  const first = document.tables[0]!.table;
  const objectRelationship = (r: Relationship) => (e: TableEntry) => ({ ...e, object_relationships: [...(e.object_relationships ?? []), r] });
  const arrayRelationship = (r: Relationship) => (e: TableEntry) => ({ ...e, array_relationships: [...(e.array_relationships ?? []), r] });
  const missingKey = { name: 'o_missing', using: { foreign_key_constraint_on: 'missing_id' } };
  const missingTable = { name: 'a_missing', using: { foreign_key_constraint_on: { table: qualified('ghost_rows'), column: 'owner_id' } } };
  const firstName = `${FUZZ_SCHEMA}.${first.name}`;
  /** The engine's name of an object of the first table, and its reason. */
  const onFirst = (type: string, name: string, reason: string) => ({
    type,
    name: `${type} ${name} in table ${firstName} in source default`,
    reason: `Inconsistent object: ${reason}`,
  });
  const inRelationship = (name: string, reason: string) => `in table "${firstName}": in relationship "${name}": ${reason}`;
  const ghostRows = `table "${FUZZ_SCHEMA}.ghost_rows" does not exist`;
  const remoteOnGhost = {
    name: 'rr_ghost',
    definition: { to_remote_schema: { remote_schema: 'rs0', lhs_fields: ['ghost'], remote_field: { b: { arguments: { x: '$ghost' } } } } },
  };
  const toNowhereSource = {
    name: 'ts_nowhere',
    definition: { to_source: { source: 'src_nowhere', table: first, relationship_type: 'object', field_mapping: { id: 'id' } } },
  };
  const remoteToNowhere = {
    name: 'rr_nowhere',
    definition: { to_remote_schema: { remote_schema: 'nowhere', lhs_fields: [], remote_field: { a: { arguments: {} } } } },
  };
  const manualToMissing = { name: 'm_missing', using: { manual_configuration: { remote_table: qualified('ghost_rows'), column_mapping: { id: 'owner_id' } } } };
  return [
    {
      kind: 'a source whose database does not answer',
      apply: (d) => ({
        ...d,
        sources: [
          ...(d.sources ?? []),
          { name: 'src_gone', kind: 'postgres', configuration: { connection_info: { database_url: 'postgres://fuzz@127.0.0.1:1/gone' } }, tables: [] },
        ],
      }),
      reported: {
        type: 'source',
        name: 'source src_gone',
        definition: 'src_gone',
        reason: 'Inconsistent object: connection error',
        message: expect.any(String),
      },
    },
    {
      kind: "a table a source's database lacks",
      apply: (d) => ({
        ...d,
        sources: [
          ...(d.sources ?? []),
          {
            name: 'src_lacking',
            kind: 'postgres',
            configuration: { connection_info: { database_url: sourceUrl } },
            tables: [{ table: qualified('ghost_src') }],
          },
        ],
      }),
      reported: {
        type: 'table',
        name: `table ${FUZZ_SCHEMA}.ghost_src in source src_lacking`,
        reason: `Inconsistent object: no such table/view exists in postgres : "${FUZZ_SCHEMA}.ghost_src"`,
        definition: `${FUZZ_SCHEMA}.ghost_src`,
        source: 'src_lacking',
      },
      // The table goes; its source stays.
      afterDrop: (d) => ({
        ...d,
        sources: [...(d.sources ?? []), { name: 'src_lacking', kind: 'postgres', configuration: { connection_info: { database_url: sourceUrl } }, tables: [] }],
      }),
    },
    {
      kind: 'a table the database lacks',
      apply: (d) => ({
        ...d,
        tables: [...d.tables, { table: qualified('ghost'), select_permissions: [{ role: 'r0', permission: { columns: ['id'], filter: {} } }] }],
      }),
      reported: {
        type: 'table',
        name: `table ${FUZZ_SCHEMA}.ghost in source default`,
        reason: `Inconsistent object: no such table/view exists in postgres : "${FUZZ_SCHEMA}.ghost"`,
        definition: `${FUZZ_SCHEMA}.ghost`,
      },
    },
    {
      kind: 'an object relationship on a column the table lacks',
      apply: (d) => onFirstTable(d, objectRelationship(missingKey)),
      reported: {
        ...onFirst('object_relation', 'o_missing', inRelationship('o_missing', '"missing_id" does not exist')),
        definition: { table: first, ...missingKey },
      },
    },
    {
      kind: 'an array relationship from a table the database lacks',
      apply: (d) => onFirstTable(d, arrayRelationship(missingTable)),
      reported: { ...onFirst('array_relation', 'a_missing', inRelationship('a_missing', ghostRows)), definition: { table: first, ...missingTable } },
    },
    {
      kind: 'a remote relationship on a column the table lacks',
      apply: (d) => onFirstTable(d, (e) => ({ ...e, remote_relationships: [...(e.remote_relationships ?? []), remoteOnGhost] })),
      reported: {
        ...onFirst(
          'remote_relationship',
          'rr_ghost',
          `remote relationship "rr_ghost" of table "${firstName}" cannot be served: the column "ghost" of lhs_fields does not exist`,
        ),
        definition: { table: first, name: 'rr_ghost', definition: remoteOnGhost.definition },
      },
    },
    {
      kind: 'a to_source relationship to a source that does not exist',
      apply: (d) => onFirstTable(d, (e) => ({ ...e, remote_relationships: [...(e.remote_relationships ?? []), toNowhereSource] })),
      reported: {
        ...onFirst(
          'remote_relationship',
          'ts_nowhere',
          `remote relationship "ts_nowhere" of table "${firstName}" cannot be served: the source "src_nowhere" does not exist`,
        ),
        definition: { table: first, name: 'ts_nowhere', definition: toNowhereSource.definition },
      },
    },
    {
      kind: 'a remote relationship to a remote schema that does not exist',
      apply: (d) => onFirstTable(d, (e) => ({ ...e, remote_relationships: [...(e.remote_relationships ?? []), remoteToNowhere] })),
      reported: {
        ...onFirst(
          'remote_relationship',
          'rr_nowhere',
          `remote relationship "rr_nowhere" of table "${firstName}" cannot be served: the remote schema "nowhere" does not exist`,
        ),
        definition: { table: first, name: 'rr_nowhere', definition: remoteToNowhere.definition },
      },
    },
    {
      kind: 'a manual relationship to a table the database lacks',
      apply: (d) => onFirstTable(d, arrayRelationship(manualToMissing)),
      reported: { ...onFirst('array_relation', 'm_missing', inRelationship('m_missing', ghostRows)), definition: { table: first, ...manualToMissing } },
    },
  ];
}

/** An object the arguments refuse whatever the database holds, and the whole answer that refuses it. */
export interface Refusal {
  kind: string;
  apply: (document: Document) => Document;
  answer: (document: Document) => { path: string; error: string; code: string };
}

export function refusals(): Refusal[] {
  const display = (d: Document) => JSON.stringify(`${d.tables[0]!.table.schema}.${d.tables[0]!.table.name}`);
  const append = (key: 'select_permissions' | 'insert_permissions', role: string, permission: Record<string, Json>) => (e: TableEntry) => ({
    ...e,
    [key]: [...(e[key] ?? []), { role, permission }],
  });
  /** Where the permission appended to the first table sits. */
  const at = (d: Document, key: 'select_permissions' | 'insert_permissions') =>
    `$.args.metadata.tables[0].${key}[${d.tables[0]![key]?.length ?? 0}].permission`;
  return [
    {
      kind: 'a source whose customization has a prefix that is no GraphQL name',
      apply: (d) => ({
        ...d,
        sources: [
          ...(d.sources ?? []),
          {
            name: 'src_bad',
            kind: 'postgres',
            configuration: { connection_info: { database_url: 'postgres://x/y' } },
            tables: [],
            customization: BAD_CUSTOMIZATION.customization,
          },
        ],
      }),
      answer: (d) => BAD_CUSTOMIZATION.answer(`$.args.metadata.sources[${d.sources?.length ?? 0}]`),
    },
    {
      kind: 'a source named default',
      apply: (d) => ({
        ...d,
        sources: [
          ...(d.sources ?? []),
          { name: 'default', kind: 'postgres', configuration: { connection_info: { database_url: 'postgres://x/y' } }, tables: [] },
        ],
      }),
      answer: (d) => ({
        path: `$.args.metadata.sources[${d.sources?.length ?? 0}].name`,
        error: 'the source "default" is the server\'s own database: it cannot be added, dropped, renamed or changed',
        code: 'not-supported',
      }),
    },
    {
      kind: 'a select permission naming a column the table lacks',
      apply: (d) => onFirstTable(d, append('select_permissions', 'rx', { columns: ['missing'], filter: {} })),
      answer: (d) => ({ path: `${at(d, 'select_permissions')}.columns`, error: '"missing" does not exist', code: 'not-exists' }),
    },
    {
      kind: 'a filter on a column the table lacks',
      apply: (d) => onFirstTable(d, append('select_permissions', 'rx', { columns: ['id'], filter: { missing: { _eq: 1 } } })),
      answer: (d) => ({ path: `${at(d, 'select_permissions')}.filter`, error: 'no such column exists : "missing"', code: 'not-exists' }),
    },
    {
      kind: 'an unknown operator',
      apply: (d) => onFirstTable(d, append('select_permissions', 'rx', { columns: ['id'], filter: { id: { _almost: 1 } } })),
      answer: (d) => ({ path: `${at(d, 'select_permissions')}.filter`, error: 'Unknown operator : _almost', code: 'unexpected-payload' }),
    },
    {
      kind: 'a second select permission of one role',
      apply: (d) =>
        onFirstTable(d, (e) =>
          append('select_permissions', 'rx', { columns: ['id'], filter: {} })(append('select_permissions', 'rx', { columns: '*', filter: {} })(e)),
        ),
      answer: (d) => ({
        path: '$.args.metadata.tables[0]',
        error: `multiple declarations exist for the following select permissions of ${display(d)} : "rx"`,
        code: 'already-exists',
      }),
    },
    {
      kind: 'an insert preset on a column the table lacks',
      apply: (d) => onFirstTable(d, append('insert_permissions', 'rx', { check: {}, set: { missing: 1 } })),
      answer: (d) => ({ path: `${at(d, 'insert_permissions')}.set`, error: '"missing" does not exist', code: 'not-exists' }),
    },
    {
      kind: 'a relationship named like a column',
      apply: (d) =>
        onFirstTable(d, (e) => ({
          ...e,
          object_relationships: [...(e.object_relationships ?? []), { name: 'id', using: { foreign_key_constraint_on: 'id' } }],
        })),
      answer: (d) => ({ path: '$.args', error: `column/relationship of table ${display(d)} already exists`, code: 'already-exists' }),
    },
    {
      kind: 'a table tracked twice',
      apply: (d) => ({ ...d, tables: [...d.tables, { table: d.tables[0]!.table }] }),
      answer: (d) => ({ path: '$.args', error: `multiple declarations exist for the following tables : ${display(d)}`, code: 'already-exists' }),
    },
    {
      kind: 'a custom root field that is no GraphQL name',
      apply: (d) => onFirstTable(d, (e) => ({ ...e, configuration: { ...(e.configuration ?? {}), custom_root_fields: { select: 'not a name' } } })),
      answer: (d) => ({
        path: '$.args',
        error: `"not a name" (root field select of table ${display(d)}) is not a valid GraphQL name`,
        code: 'validation-failed',
      }),
    },
    {
      kind: 'a remote schema with two permissions of one role',
      apply: (d) => ({
        ...d,
        remote_schemas: [
          ...(d.remote_schemas ?? []),
          {
            name: 'rs_twice',
            definition: { url: 'http://127.0.0.1:9/graphql' },
            permissions: [
              { role: 'r0', definition: { schema: 'type Query { a: Int }' } },
              { role: 'r0', definition: { schema: 'type Query { b: Int }' } },
            ],
          },
        ],
      }),
      answer: (d) => ({
        path: `$.args.metadata.remote_schemas[${d.remote_schemas?.length ?? 0}].permissions[1]`,
        error: 'the role "r0" has two permissions on this remote schema',
        code: 'parse-failed',
      }),
    },
    {
      kind: 'a remote relationship whose name is no GraphQL name',
      apply: (d) =>
        onFirstTable(d, (e) => ({
          ...e,
          remote_relationships: [
            ...(e.remote_relationships ?? []),
            { name: 'rr name', definition: { to_remote_schema: { remote_schema: 'rs0', lhs_fields: [], remote_field: { a: { arguments: {} } } } } },
          ],
        })),
      answer: () => ({ path: '$.args', error: '"rr name" (remote relationship name) is not a valid GraphQL name', code: 'validation-failed' }),
    },
    {
      kind: 'a remote relationship with two fields at one level',
      apply: (d) =>
        onFirstTable(d, (e) => ({
          ...e,
          remote_relationships: [
            ...(e.remote_relationships ?? []),
            {
              name: 'rr_two',
              definition: { to_remote_schema: { remote_schema: 'rs0', lhs_fields: [], remote_field: { a: { arguments: {} }, b: { arguments: {} } } } },
            },
          ],
        })),
      answer: (d) => ({
        path: `$.args.metadata.tables[0].remote_relationships[${d.tables[0]!.remote_relationships?.length ?? 0}].definition.to_remote_schema.remote_field`,
        error: 'expected exactly one remote field, found 2',
        code: 'parse-failed',
      }),
    },
    {
      kind: 'a cron trigger whose schedule is no cron expression',
      apply: (d) => ({ ...d, cron_triggers: [...(d.cron_triggers ?? []), { name: 'bad_schedule', webhook: 'http://127.0.0.1:9/', schedule: 'every day' }] }),
      answer: (d) => ({
        path: `$.args.metadata.cron_triggers[${d.cron_triggers?.length ?? 0}].schedule`,
        error: 'invalid cron schedule "every day": five fields are expected, not 2',
        code: 'parse-failed',
      }),
    },
    {
      kind: 'two query root fields of one name',
      apply: (d) => onFirstTable(d, (e) => ({ ...e, configuration: { custom_root_fields: { select: 'same_root', select_by_pk: 'same_root' } } })),
      answer: (d) => ({
        path: '$.args',
        error: `the GraphQL name "same_root" of root field select_by_pk of table ${display(d)} conflicts with root field select`,
        code: 'already-exists',
      }),
    },
  ];
}
