// Reading the database's catalog with the queries of introspection.ts: relations, and the details
// of the named tables and functions, as the types of db/introspection.ts.
import type { QualifiedName } from '../../../spec';
import { relationKey, type DbFunction, type DbTable, type Relation } from '../db/introspection';
import { run, type Fragment, type Queryable } from './index';
import { introspectFunctions, introspectRelations, introspectTables } from './introspection';

export async function loadRelations(db: Queryable): Promise<Relation[]> {
  return run<Relation>(db, introspectRelations);
}

/** One catalog query over schema/name pairs that answers a JSON array in its one column. */
async function loadNamed<T>(
  db: Queryable,
  names: readonly QualifiedName[],
  query: (schemas: string[], names: string[]) => Fragment,
  column: string,
): Promise<T[]> {
  // Each name once: the query joins on the names, so a repeated one would repeat its rows.
  const distinct = [...new Map(names.map((n) => [relationKey(n), n])).values()];
  if (distinct.length === 0) return [];
  const [row] = await run<Record<string, T[]>>(
    db,
    query(
      distinct.map((n) => n.schema),
      distinct.map((n) => n.name),
    ),
  );
  return row?.[column] ?? [];
}

export const loadTables = (db: Queryable, names: readonly QualifiedName[]) => loadNamed<DbTable>(db, names, introspectTables, 'tables');

/** Every overload of the named functions; a name with none is simply absent from the result. */
export const loadFunctions = (db: Queryable, names: readonly QualifiedName[]) => loadNamed<DbFunction>(db, names, introspectFunctions, 'functions');
