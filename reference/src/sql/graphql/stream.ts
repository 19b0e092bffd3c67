// A streaming subscription's statement (decision dec.graphql.stream.cursor): the next batch of a
// table's rows past the cursor of a cohort's row, under the role's permission and `where`, ordered
// by the cursor column, and the cursor after that batch. Its arguments are checked here as the
// engine checks them, with its messages.
import { conventionOf, sourceTypeName, typeName } from '../../schema/typeNames';
import { argOf, fieldOf } from '../../schema/generatedFields';
import { getNamedType, GraphQLEnumType, GraphQLInputObjectType, Kind, type SelectionSetNode } from 'graphql';
import type { ColumnModel, TableModel } from '../../schema/model';
import { compileBoolExp } from './boolExp';
import { alias as newAlias, and, column, columnType, CompileError, condition, sql, table, type CohortSession, type Fragment } from './context';
import type { CollectedField } from './fields';
import { effectiveLimit, selectFilter } from './permissions';
import { rowJson, type SelectEnvironment } from './select';

/** A streaming field's arguments, checked. */
export interface StreamArguments {
  batchSize: number;
  column: ColumnModel;
  descending: boolean;
  /** The initial value as the text the cursor column is cast from (JSON text for json and jsonb); null for null. */
  initial: string | null;
  where: Record<string, unknown> | undefined;
}

/** What the engine's built-in scalars expect, in its messages. */
const EXPECTED: Record<string, string> = { Int: 'a 32-bit integer', Float: 'a float', String: 'a string', Boolean: 'a boolean' };

/** The engine's message for a value its parser refuses. */
const mismatch = (expected: string, type: string, found: string) => `expected ${expected} for type ${JSON.stringify(type)}, but found ${found}`;

/** The arguments of streaming field `f` of table `t`, or a CompileError with the engine's message. */
export function streamArguments(env: SelectEnvironment, t: TableModel, f: CollectedField): StreamArguments {
  const batchSize = argOf(t, f.args, 'batch_size') as number;
  const given = (argOf(t, f.args, 'cursor') as (Record<string, unknown> | null)[]).map((c) =>
    c === null ? null : { initial: argOf(t, c, 'initial_value') as Record<string, unknown>, ordering: argOf(t, c, 'ordering') as string | null | undefined },
  );
  const valueType = env.schema.getType(typeName(t, '_stream_cursor_value_input')) as GraphQLInputObjectType;
  // Each column given in a cursor's initial value is a cursor of its own (omitted ones are not).
  const cursors: { field: string; value: unknown; descending: boolean }[] = [];
  for (const cursor of given) {
    if (cursor === null) continue;
    if (cursor.ordering === null) throw new CompileError(mismatch('an enum value', sourceTypeName(t.typeNames, 'cursor_ordering', conventionOf(t)), 'null'));
    for (const [field, value] of Object.entries(cursor.initial)) {
      const c = t.byField.get(field)!;
      if (value === null && !c.column.nullable) {
        const type = getNamedType(valueType.getFields()[field]!.type);
        const expected = type instanceof GraphQLEnumType ? 'an enum value' : EXPECTED[type.name];
        if (expected) throw new CompileError(mismatch(expected, type.name, 'null'));
      }
      cursors.push({ field, value, descending: cursor.ordering === 'DESC' });
    }
  }
  if (cursors.length === 0) throw new CompileError('one streaming column field is expected');
  if (cursors.length > 1) throw new CompileError('multiple column cursors are not supported yet');
  if (batchSize < 0) {
    const form = f.node.arguments?.find((a) => a.name.value === fieldOf(t, 'batch_size'))?.value.kind === Kind.VARIABLE ? 'a number' : 'an integer';
    throw new CompileError(mismatch('a non-negative 32-bit integer', 'Int', form));
  }
  const [{ field, value, descending }] = cursors as [(typeof cursors)[0]];
  const c = t.byField.get(field)!;
  const where = argOf(t, f.args, 'where') as Record<string, unknown> | undefined;
  return { batchSize, column: c, descending, initial: cursorText(c, value), where };
}

/** A value as the text its column is cast from: what `::text` of the column gives back, for the cursors after it. */
function cursorText(c: ColumnModel, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (c.column.type === 'json' || c.column.type === 'jsonb' || typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * `data`: the JSON object of the root field `alias`, the batch of rows past the cursor of the
 * cohort's row; `cursor`: the text of the cursor column of the batch's last row, null when it has none.
 */
export function streamStatement(
  env: SelectEnvironment,
  t: TableModel,
  /** The answer's data made of the batch: the field's alias, or the namespace field's too. */
  data: (batch: Fragment) => Fragment,
  stream: StreamArguments,
  cohort: CohortSession,
  selectionSet: SelectionSetNode | undefined,
): sql.SQLQuery {
  const a = newAlias(t.name);
  const rows = newAlias('rows');
  const value = column(a, stream.column.column.name);
  const [past, direction, reverse] = stream.descending ? ['<', 'desc', 'asc'] : ['>', 'asc', 'desc'];
  const cursor = sql.query`(${cohort.alias}.cursor)::${columnType(stream.column.column)}`;
  const conditions = and([compileBoolExp(env, t, a, stream.where), selectFilter(env, t, a), condition(sql.query`${value} ${sql.raw(past!)} ${cursor}`)]);
  const batch = sql.query`coalesce(json_agg(${rows}.j order by ${rows}.c ${sql.raw(direction!)}), '[]'::json)`;
  return sql.query`select ${data(batch)}::text as data, (array_agg(${rows}.c order by ${rows}.c ${sql.raw(reverse!)}))[1]::text as cursor
  from (select ${rowJson(env, t, a, selectionSet)} as j, ${value} as c
          from ${table(t)} as ${a}
         where ${conditions}
         order by ${value} ${sql.raw(direction!)} limit ${sql.value(effectiveLimit(t, stream.batchSize))}) as ${rows}`;
}
