// Objects the arguments refuse whatever the database holds, for the metadata-replacement fuzzer
// (metadataDocuments.ts): added to a valid document they make replace_metadata answer 400 with the
// answer given here, and change nothing.
import { onFirstTable, type Document, type Json, type TableEntry } from './metadataDocuments';
import { BAD_CUSTOMIZATION } from './sourceCustomizations';

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
