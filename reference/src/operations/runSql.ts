// run_sql (SPEC.md §4.3; decisions dec.run_sql.*): admin-only SQL, answered in the
// TuplesOk / CommandOk form, with metadata kept in step with what the SQL did to tracked tables.
import type { PoolClient } from 'pg';
import { DatabaseError } from 'pg';
import { quoteQualified, type MetadataDocument } from '../../../spec';
import { engineError, EngineError } from '../errors';
import { relationKey, type Introspection } from '../metadata/inconsistency';
import { runUserStatement } from '../sql';
import type { OperationContext } from './context';

interface RunSqlArgs {
  sql: string;
  cascade?: boolean;
  read_only?: boolean;
  check_metadata_consistency?: boolean;
}

export async function runSql(ctx: OperationContext, args: RunSqlArgs): Promise<unknown> {
  if (args.read_only) return ctx.readOnly((db) => execute(db, args.sql));
  const before = ctx.document.tables.length > 0 ? await ctx.introspect() : undefined;
  const response = await execute(ctx.db, args.sql);
  ctx.invalidateIntrospection();
  if (before) ctx.document = followDatabase(ctx.document, before, await ctx.introspect());
  return response;
}

async function execute(db: PoolClient, text: string): Promise<unknown> {
  let results;
  try {
    results = await runUserStatement(db, text);
  } catch (error) {
    throw postgresError(error, text);
  }
  const last = results[results.length - 1];
  if (!last || (last.fields.length === 0 && last.command !== 'SELECT')) return { result_type: 'CommandOk', result: null };
  return {
    result_type: 'TuplesOk',
    result: [last.fields.map((f) => f.name), ...last.rows.map((row) => row.map((v) => (v === null ? 'NULL' : String(v))))],
  };
}

/** PostgreSQL's refusal as the 400 of dec.run_sql.errors; anything else is a connection failure. */
export function postgresError(error: unknown, statement: string): EngineError {
  if (error instanceof EngineError) return error;
  if (error instanceof DatabaseError) {
    return engineError('postgres-error.query-failed', '$', [], {
      statement,
      prepared: false,
      arguments: [],
      error: {
        exec_status: 'FatalError',
        status_code: error.code ?? null,
        message: error.message,
        description: error.detail ?? null,
        hint: error.hint ?? null,
      },
    });
  }
  return engineError('postgres-error.connection', '$', [], { message: error instanceof Error ? error.message : String(error) });
}

/**
 * A tracked table that the SQL dropped is untracked with it; a renamed one is refused
 * (SPEC.md §7.2 "table renames are not yet supported"), undoing the whole request.
 */
function followDatabase(document: MetadataDocument, before: Introspection, after: Introspection): MetadataDocument {
  const byOid = new Map([...after.relations.values()].map((r) => [r.oid, r]));
  const tables = document.tables.filter((entry) => {
    const old = before.relations.get(relationKey(entry.table));
    if (!old) return true; // already inconsistent before the SQL ran
    if (after.relations.has(relationKey(entry.table))) return true;
    const renamed = byOid.get(old.oid);
    if (renamed) throw engineError('not-supported.table-rename', '$', [quoteQualified(entry.table)]);
    return false;
  });
  return tables.length === document.tables.length ? document : { ...document, tables };
}
