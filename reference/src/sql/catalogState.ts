// The state the server keeps for its tools beside the metadata (decision dec.catalog-state): the
// CLI's (the migrations it applied) and the console's, in the catalog's version row, as the
// engine keeps them in its own.
import * as sql from 'pg-sql2';
import { CATALOG_SCHEMA } from './catalog-schema';

const version = sql.identifier(CATALOG_SCHEMA, 'engine_version');

export const CATALOG_STATE_MIGRATION: readonly sql.SQLQuery[] = [
  sql.query`alter table ${version}
    add column catalog_id uuid not null default gen_random_uuid(),
    add column cli_state jsonb not null default '{}'::jsonb,
    add column console_state jsonb not null default '{}'::jsonb`,
];

export const readCatalogState = sql.query`select catalog_id::text as id, cli_state, console_state from ${version}`;

/** One state replaced whole: `kind` is the column's own name, chosen by the caller from two. */
export const writeCatalogState = (kind: 'cli' | 'console', state: unknown) =>
  sql.query`update ${version} set ${sql.identifier(`${kind}_state`)} = ${sql.value(JSON.stringify(state))}::jsonb`;
