// Inserts through relationships (decision dec.graphql.nested-inserts), as the engine makes them: a
// row's object relationships are inserted first and their keys copied into the row, then the row,
// then its array relationships with the row's key in their columns; each level under its table's
// insert permission. Each insert is a statement of its own (a step), so that a check sees the rows
// inserted before it and an upsert of a parent sees the one of the row before; a step reads the
// rows of earlier steps from their answers, bound when it runs (`EarlierRows`). The last statement
// answers the field from the top-level rows, after every level is in.
import type { SelectionSetNode } from 'graphql';
import { ERRORS_BY_ID, formatMessage, quoteQualified } from '../../../../spec';
import type { RelationshipModel, TableModel } from '../../schema/model';
import { alias, CompileError, sql, table, type Fragment } from './context';
import { answer, checked, insertRelationship, insertRows, onConflictOf, statementResult, type DeterminedColumn, type OnConflict } from './mutation';
import { argOf } from '../../schema/generatedFields';
import type { SelectEnvironment } from './select';

type Row = Record<string, unknown>;

/**
 * A bound value that stands for the answers of earlier steps (by position): when the plan runs it is
 * bound to the JSON array of those steps' data, each the JSON array of the rows they inserted, as
 * the text of the table's row type (which reads back exactly, whatever the columns' types).
 */
export class EarlierRows {
  constructor(readonly steps: readonly number[]) {}
}

export interface InsertStep {
  statement: Fragment;
  /** The refusal when the step inserts no row (its on_conflict left none), with its error code. */
  refusedWhenEmpty?: { message: string; code: string };
}

interface RelationshipInsert {
  data: Row | Row[];
  on_conflict?: OnConflict | null;
}

/** A relationship's rows as given to a field of `t` (its target is of `t`'s source, so of its convention). */
const relationshipInsert = (t: TableModel, value: unknown): RelationshipInsert => ({
  data: argOf(t, value as Row, 'data') as Row | Row[],
  on_conflict: onConflictOf(t, argOf(t, value as Row, 'on_conflict')),
});

/** Whether a row inserts through a relationship: a non-null object relationship, or an array relationship with rows. */
const nests = (t: TableModel, o: Row) =>
  Object.entries(o).some(([field, value]) => {
    const r = insertRelationship(t, field);
    return r !== undefined && value !== null && value !== undefined && (r.kind === 'object' || (relationshipInsert(t, value).data as Row[]).length > 0);
  });

/** Whether any of `objects` inserts through a relationship: then the insert goes step by step. */
export const insertsThroughRelationships = (t: TableModel, objects: Row[]) => objects.some((o) => nests(t, o));

const refusal = (id: string, ...params: string[]) => ({ message: formatMessage(id, ...params), code: ERRORS_BY_ID.get(id)!.code! });
const refuse = (id: string, ...params: string[]) => {
  const { message, code } = refusal(id, ...params);
  return new CompileError(message, code);
};
const quoted = (columns: string[]) => columns.map((c) => JSON.stringify(c)).join(', ');

/**
 * The steps of an insert of `objects` into `t` through relationships, the last one answering the
 * field (`single`: the row of insert_<t>_one).
 */
export function nestedInsertSteps(
  env: SelectEnvironment,
  t: TableModel,
  objects: Row[],
  onConflict: OnConflict | null | undefined,
  single: boolean,
  selectionSet: SelectionSetNode | undefined,
): InsertStep[] {
  const steps: InsertStep[] = [];
  const add = (step: InsertStep) => steps.push(step) - 1;
  /** The value of `column` of the row inserted by step `k` into `from`. */
  const fromStep = (k: number, from: TableModel, column: string): Fragment =>
    sql.query`((${sql.value(new EarlierRows([k]))}::json #>> '{0,0}')::${table(from)}).${sql.identifier(column)}`;
  const dbColumn = (of: TableModel, name: string) => env.allModels.get(of.key)!.byColumn.get(name)!.column;
  /** The database columns of a row's column fields. */
  const givenColumns = (of: TableModel, o: Row) =>
    Object.keys(o).flatMap((field) => {
      const c = of.access.insertColumns.find((x) => x.field === field);
      return c ? [c.column.name] : [];
    });

  /** One statement inserting `rows` with the `determined` columns; its position. */
  const step = (
    of: TableModel,
    rows: Row[],
    conflict: OnConflict | null | undefined,
    determined: DeterminedColumn[],
    refused?: InsertStep['refusedWhenEmpty'],
  ) => {
    const inserted = alias('inserted');
    const rowText = alias('row');
    return add({
      statement: sql.query`with ${inserted} as (
    ${insertRows(env, of, rows, conflict, determined)})
  ${statementResult(
    sql.query`coalesce((select json_agg(${rowText}::text) from ${inserted} as ${rowText}), '[]'::json)`,
    checked(env, of, inserted, of.permissions?.insert?.check),
  )}`,
      ...(refused ? { refusedWhenEmpty: refused } : {}),
    });
  };

  /** Inserts `rows` (some) of `of`, `determined` by a parent: the positions of the steps that insert them. */
  const insertAll = (of: TableModel, rows: Row[], conflict: OnConflict | null | undefined, determined: DeterminedColumn[]): number[] => {
    if (rows.some((o) => nests(of, o))) return rows.map((o) => insertOne(of, o, conflict, determined));
    for (const o of rows) refuseParentColumns(of, o, determined);
    return [step(of, rows, conflict, determined)];
  };

  /** A row may not give a column its parent sets. */
  const refuseParentColumns = (of: TableModel, o: Row, determined: DeterminedColumn[]) => {
    const fromParent = new Set(determined.map(([c]) => c.name));
    const clash = givenColumns(of, o).filter((c) => fromParent.has(c));
    if (clash.length) throw refuse('err.graphql.nested-insert-parent-column', quoted(clash));
  };

  /** Inserts one row with what it nests; `refused`: when it must give a row to refer to (an object relationship's). */
  const insertOne = (
    of: TableModel,
    o: Row,
    conflict: OnConflict | null | undefined,
    determined: DeterminedColumn[],
    refused?: InsertStep['refusedWhenEmpty'],
  ): number => {
    refuseParentColumns(of, o, determined);
    const set = [...determined];
    const taken = new Set([...givenColumns(of, o), ...determined.map(([c]) => c.name)]);
    const arrays: [RelationshipModel, RelationshipInsert][] = [];
    for (const [field, value] of Object.entries(o)) {
      const r = insertRelationship(of, field);
      if (!r || value === null || value === undefined) continue;
      const nested = relationshipInsert(of, value);
      if (r.kind === 'array') {
        if ((nested.data as Row[]).length) arrays.push([r, nested]);
        continue;
      }
      const clash = r.mapping.map(([local]) => local).filter((c) => taken.has(c));
      if (clash.length) throw refuse('err.graphql.nested-insert-object-column', JSON.stringify(r.name), quoted(clash));
      const target = env.models.get(r.targetKey)!;
      const parent = insertOne(
        target,
        nested.data as Row,
        nested.on_conflict,
        [],
        refusal('err.graphql.nested-insert-empty-object', JSON.stringify(r.name), quoteQualified(target.db)),
      );
      for (const [local, remote] of r.mapping) {
        set.push([dbColumn(of, local), fromStep(parent, target, remote)]);
        taken.add(local);
      }
    }
    const own = step(of, [o], conflict, set, arrays.length ? refusal('err.graphql.nested-insert-empty-parent', quoteQualified(of.db)) : refused);
    for (const [r, nested] of arrays) {
      const target = env.models.get(r.targetKey)!;
      insertAll(
        target,
        nested.data as Row[],
        nested.on_conflict,
        r.mapping.map(([local, remote]) => [dbColumn(target, remote), fromStep(own, of, local)]),
      );
    }
    return own;
  };

  const top = insertAll(t, objects, onConflict, []);
  const everyStep = steps.map((_, i) => i);
  // The field's answer: the top-level rows, read back from their steps' answers in order; every
  // row of every level counted.
  const changed = alias('inserted');
  const level = alias('level');
  const row = alias('row');
  const rows = sql.query`select (${row}.value #>> '{}')::${table(t)} as r from json_array_elements(${sql.value(new EarlierRows(top))}::json) with ordinality as ${level},
      json_array_elements(${level}.value) with ordinality as ${row} order by ${level}.ordinality, ${row}.ordinality`;
  const counted = alias('counted');
  const affected = sql.query`(select coalesce(sum(json_array_length(${counted}.value)), 0) from json_array_elements(${sql.value(new EarlierRows(everyStep))}::json) as ${counted})`;
  const read = alias('read');
  add({
    statement: sql.query`with ${changed} as (select (${read}.r).* from (${rows}) as ${read})
  ${statementResult(answer(env, t, changed, single, selectionSet, affected), sql.query`true`)}`,
  });
  return steps;
}
