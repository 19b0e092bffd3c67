// run_sql (SPEC.md §4.3; decisions dec.run_sql.*): admin-only SQL, answered in the
// TuplesOk / CommandOk form, with metadata kept in step with what the SQL did to tracked tables.
import type { PoolClient } from 'pg';
import { DatabaseError } from 'pg';
import { isConnectionLoss } from '../db/connectionLoss';
import { DEFAULT_SOURCE, displayQualified, quoteQualified, type MetadataDocument, type QualifiedName } from '../../../spec';
import { engineError, EngineError } from '../errors';
import { relationKey, type Introspection } from '../db/introspection';
import { withoutInconsistent, withoutObjects } from '../metadata/document';
import { findInconsistencies, introducedBy, type InconsistentObject } from '../metadata/inconsistency';
import { relationshipsOf } from '../metadata/relationships';
import { withoutFunctions } from '../metadata/functions';
import { dependentsOf, untrackTable } from '../metadata/tables';
import { sourcesOf, sourceView, withSourceView } from '../metadata/sources';
import { dependentsOfColumn, describeDependent, withoutDependents } from '../metadata/columnDependents';
import * as q from '../sql';
import { runUserStatement } from '../sql';
import type { OperationContext } from './context';
import { checkTransactionControl, type SyntaxProblem } from './transactionControl';
import { checksConsistency, problemsBefore, refuseNewInconsistencies } from './runSqlConsistency';
import { followComputedFieldFunctions } from './runSqlComputedFields';

interface RunSqlArgs {
  sql: string;
  cascade?: boolean;
  read_only?: boolean;
  check_metadata_consistency?: boolean;
  source?: string;
}

export async function runSql(ctx: OperationContext, args: RunSqlArgs): Promise<unknown> {
  const check = await checkTransactionControl(args.sql);
  if (!check.ok) throw syntaxError(args.sql, check.problem);
  if (check.control) throw engineError('bad-request.transaction-control', '$.args.sql', [`${check.control.statement} (statement ${check.control.index})`]);
  // Another source's database: its own transaction, committed with the request (dec.source.forms).
  if (args.source !== undefined && args.source !== DEFAULT_SOURCE) return runOnSource(ctx, args, args.source);
  if (args.read_only) return ctx.readOnly((db) => execute(db, args.sql));
  const before = ctx.document.tables.length > 0 ? await ctx.introspect() : undefined;
  if (before) await ctx.inconsistenciesBefore();
  const problems = before && checksConsistency(args.check_metadata_consistency, check.onlyRows) ? await problemsBefore(ctx) : undefined;
  const response = await ctx.guarded((db) => execute(db, args.sql));
  ctx.invalidateIntrospection();
  if (before) {
    const after = await ctx.introspect();
    ctx.document = followDatabase(ctx.document, before, after, args.cascade ?? false);
    ctx.document = followColumns(ctx.document, before, after, args.cascade ?? false);
    ctx.document = followComputedFieldFunctions(ctx.document, before, after, args.cascade ?? false, '$.args');
    ctx.document = await dropBrokenRelationships(ctx, await ctx.introspect(), args.cascade ?? false);
  }
  if (problems) await refuseNewInconsistencies(ctx, problems);
  return response;
}

/** run_sql on another source: what is tracked there follows its database as the server's own does. */
async function runOnSource(ctx: OperationContext, args: RunSqlArgs, name: string): Promise<unknown> {
  if (args.read_only === true) return ctx.onSource(name, (db) => execute(db, args.sql), true);
  // Its tables may have changed: the schema is built again.
  ctx.databaseChanged = true;
  const source = sourcesOf(ctx.document).find((s) => s.name === name)!;
  const view = sourceView(ctx.document, name);
  const before = view.tables.length > 0 ? await ctx.introspectSource(source, view) : undefined;
  const response = await ctx.onSource(name, (db) => execute(db, args.sql));
  const after = before && (await ctx.introspectSource(source, view));
  if (before && after) {
    const cascade = args.cascade ?? false;
    ctx.document = withSourceView(ctx.document, name, followColumns(followDatabase(view, before, after, cascade), before, after, cascade));
  }
  return response;
}

/**
 * Relationships that the SQL broke (a dropped column or foreign key) are dependents of what it
 * dropped: refused without cascade, dropped with it.
 */
async function dropBrokenRelationships(ctx: OperationContext, after: Introspection, cascade: boolean): Promise<MetadataDocument> {
  const introduced = introducedBy(await ctx.inconsistenciesBefore(), findInconsistencies(ctx.document, after));
  // A tracked function, or a computed field's function, that the SQL dropped, renamed, changed past
  // tracking or overloaded: refused, or with cascade untracked (dropped from its table) (dec.functions.run_sql).
  const functions = introduced.flatMap((o) => (o.type === 'function' ? [o.definition] : []));
  const fields = introduced.flatMap((o) => (o.type === 'computed_field' ? [o] : []));
  if (!cascade && (functions.length > 0 || fields.length > 0)) {
    const names = [...functions.map((f) => f.function), ...fields.map((o) => o.definition.definition.function)];
    const overloaded = names.find((name) => (after.functions.get(relationKey(name))?.length ?? 0) > 1);
    if (overloaded) throw engineError('not-supported.function-overloaded', '$.args', [quoteQualified(overloaded)]);
    const list = [
      ...functions.map((f) => `function ${displayQualified(f.function)}`),
      ...fields.map((o) => `computed field ${displayQualified(o.definition.table)}.${o.definition.name}`),
    ];
    throw engineError('dependency-error.drop', '$.args', [list.join(', ')]);
  }
  if (functions.length > 0) ctx.document = withoutFunctions(ctx.document, functions);
  if (fields.length > 0) ctx.document = withoutObjects(ctx.document, fields);
  const broken = introduced.filter(
    (o): o is Extract<InconsistentObject, { type: 'object_relation' | 'array_relation' }> => o.type === 'object_relation' || o.type === 'array_relation',
  );
  if (broken.length === 0) return ctx.document;
  if (!cascade) {
    const list = broken.map((o) => {
      const d = o.definition as { table: QualifiedName; name: string };
      return `relationship ${displayQualified(d.table)}.${d.name}`;
    });
    throw engineError('dependency-error.drop', '$.args', [list.join(', ')]);
  }
  return withoutInconsistent(ctx.document, after);
}

async function execute(db: PoolClient, text: string): Promise<unknown> {
  let results;
  try {
    await q.run(db, q.textReadAsChecked);
    results = await runUserStatement(db, text);
    // What the request runs after it (its own statements, the next run_sql) is read as checked too.
    await q.run(db, q.textReadAsChecked);
  } catch (error) {
    throw postgresError(error, text, '$.args');
  }
  const last = results[results.length - 1];
  if (!last || (last.fields.length === 0 && last.command !== 'SELECT')) return { result_type: 'CommandOk', result: null };
  return {
    result_type: 'TuplesOk',
    result: [last.fields.map((f) => f.name), ...last.rows.map((row) => row.map((v) => (v === null ? 'NULL' : String(v))))],
  };
}

/** Text PostgreSQL's parser refuses: the answer PostgreSQL gives for it (SQLSTATE 42601), before anything runs. */
function syntaxError(statement: string, problem: SyntaxProblem): EngineError {
  return engineError('postgres-error.query-failed', '$.args', [], {
    statement,
    prepared: false,
    arguments: [],
    error: { exec_status: 'FatalError', status_code: '42601', message: problem.message, description: null, hint: null },
  });
}

/** PostgreSQL's refusal as the 400 of dec.run_sql.errors (at `path`); anything else is a connection failure. */
export function postgresError(error: unknown, statement: string, path = '$'): EngineError {
  if (error instanceof EngineError) return error;
  if (error instanceof DatabaseError && !isConnectionLoss(error)) {
    return engineError('postgres-error.query-failed', path, [], {
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
 * A tracked table that the SQL dropped is untracked with it (its dependents need cascade); a
 * renamed one is refused (SPEC.md §7.2 "table renames are not yet supported"), undoing the request.
 */
function followDatabase(document: MetadataDocument, before: Introspection, after: Introspection, cascade: boolean): MetadataDocument {
  const byOid = new Map([...after.relations.values()].map((r) => [r.oid, r]));
  let next = document;
  for (const entry of document.tables) {
    const old = before.relations.get(relationKey(entry.table));
    if (!old || after.relations.has(relationKey(entry.table))) continue; // inconsistent before, or still there
    if (byOid.get(old.oid)) throw engineError('not-supported.table-rename', '$.args', [quoteQualified(entry.table)]);
    // Tables dropped together may lead to each other: only what stays depends on them.
    const dependents = dependentsOf(next, before, entry.table).filter((d) => after.relations.has(relationKey(d.table)));
    if (dependents.length > 0 && !cascade) {
      throw engineError('dependency-error.drop', '$.args', [dependents.map((d) => `relationship ${displayQualified(d.table)}.${d.name}`).join(', ')]);
    }
    next = untrackTable(next, before, { table: entry.table, cascade: true });
  }
  return next;
}

/**
 * A column added under a relationship's name is refused. A column of a tracked table that the SQL dropped, renamed or gave another type, while metadata
 * names it: refused with SPEC.md §7.2's message for what happened, or with cascade its dependents
 * go (permissions, relationships, its custom name).
 */
function followColumns(document: MetadataDocument, before: Introspection, after: Introspection, cascade: boolean): MetadataDocument {
  let next = document;
  for (const entry of document.tables) {
    const old = before.tables.get(relationKey(entry.table));
    const now = after.tables.get(relationKey(entry.table));
    if (!old || !now) continue;
    for (const column of now.columns) {
      const added = !old.columns.some((c) => c.position === column.position);
      if (added && relationshipsOf(entry).some(({ rel }) => rel.name === column.name)) {
        throw engineError('already-exists.relationship-named-column', '$.args', [JSON.stringify(column.name), quoteQualified(entry.table)]);
      }
    }
    for (const column of old.columns) {
      const same = now.columns.find((c) => c.position === column.position);
      const change = !same
        ? 'drop'
        : same.name !== column.name
          ? 'rename'
          : same.type !== column.type || same.type_schema !== column.type_schema
            ? 'type'
            : undefined;
      if (!change) continue;
      const dependents = dependentsOfColumn(next, before, { table: entry.table, column: column.name });
      if (dependents.length === 0) continue;
      if (!cascade) {
        const list = dependents.map(describeDependent).join(', ');
        if (change === 'rename') throw engineError('not-supported.column-rename', '$.args', [quoteQualified(entry.table), JSON.stringify(column.name)]);
        if (change === 'type') throw engineError('dependency-error.column-type', '$.args', [JSON.stringify(column.name), quoteQualified(entry.table), list]);
        throw engineError('dependency-error.drop', '$.args', [list]);
      }
      next = withoutDependents(next, dependents);
    }
  }
  return next;
}
