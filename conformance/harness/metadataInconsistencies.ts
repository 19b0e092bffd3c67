// Objects the database lacks, for the metadata-replacement fuzzer (metadataDocuments.ts): added to a
// valid document they make it inconsistent; replace_metadata refuses them, or keeps and reports them
// under allow_inconsistent_metadata, and drop_inconsistent_metadata drops them.
import { FUZZ_SCHEMA, onFirstTable, qualified, type Document, type Json, type Relationship, type TableEntry } from './metadataDocuments';

/** An object the database lacks, added to a document: kept and reported under allow_inconsistent_metadata. */
export interface Inconsistency {
  kind: string;
  apply: (document: Document) => Document;
  /** The inconsistent object as get_inconsistent_metadata reports it. */
  reported: { type: string; reason: string; definition: Json; name?: string; message?: unknown; source?: string };
  /** The document drop_inconsistent_metadata leaves, when it is not the one before `apply`. */
  afterDrop?: (document: Document) => Document;
}

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
  /** A remote relationship added to the first table, reported inconsistent for `reason`. */
  const remoteRelationshipCase = (kind: string, relationship: { name: string; definition: Json }, reason: string) => ({
    kind,
    apply: (d: Document) => onFirstTable(d, (e) => ({ ...e, remote_relationships: [...(e.remote_relationships ?? []), relationship] })),
    reported: {
      ...onFirst('remote_relationship', relationship.name, `remote relationship "${relationship.name}" of table "${firstName}" cannot be served: ${reason}`),
      definition: { table: first, name: relationship.name, definition: relationship.definition },
    },
  });
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
    remoteRelationshipCase('a remote relationship on a column the table lacks', remoteOnGhost, 'the column "ghost" of lhs_fields does not exist'),
    remoteRelationshipCase('a to_source relationship to a source that does not exist', toNowhereSource, 'the source "src_nowhere" does not exist'),
    remoteRelationshipCase('a remote relationship to a remote schema that does not exist', remoteToNowhere, 'the remote schema "nowhere" does not exist'),
    {
      kind: 'a manual relationship to a table the database lacks',
      apply: (d) => onFirstTable(d, arrayRelationship(manualToMissing)),
      reported: { ...onFirst('array_relation', 'm_missing', inRelationship('m_missing', ghostRows)), definition: { table: first, ...manualToMissing } },
    },
  ];
}
