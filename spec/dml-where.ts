// The where of the legacy DML (select, count, update, delete): its and/or/not/exists are read with
// the arguments, as the engine reads them, so that a problem with them is reported where the
// arguments' problems are (decision dec.envelope.argument-paths); what a column or relationship
// holds is read with the table (decision dec.dml.where-paths).
import { tableName } from './names';
import { array, childPath, isPlainObject, json, jsonObject, type ParseProblem, type Schema } from './schema';

/** The words of a boolean expression of the wrong shape, wherever it is read. */
export const BOOL_EXP_SHAPE = {
  notObject: 'expected Object for a boolean expression',
  notArray: (key: string) => `expected Array for ${key}`,
  exists: '_exists expects {_table, _where}',
} as const;

/** `and`, `or`, `not` or `exists` for their keys (`$and` or `_and`…), else undefined. */
export const connectiveOf = (key: string) => /^[$_](and|or|not|exists)$/.exec(key)?.[1] as 'and' | 'or' | 'not' | 'exists' | undefined;

const inner = (value: unknown, path: string): ParseProblem | undefined =>
  isPlainObject(value) ? shapeProblem(value, path) : { path, message: BOOL_EXP_SHAPE.notObject };

function shapeProblem(exp: Record<string, unknown>, path: string): ParseProblem | undefined {
  for (const [key, value] of Object.entries(exp)) {
    const connective = connectiveOf(key);
    if (!connective) continue;
    const at = childPath(path, key);
    if (connective === 'not') {
      const problem = inner(value, at);
      if (problem) return problem;
    } else if (connective === 'exists') {
      if (!isPlainObject(value) || !('_table' in value) || !('_where' in value)) return { path: at, message: BOOL_EXP_SHAPE.exists };
      const table = tableName.parse(value._table, childPath(at, '_table'));
      if (!table.ok) return table.problem;
      const problem = inner(value._where, childPath(at, '_where'));
      if (problem) return problem;
    } else {
      if (!Array.isArray(value)) return { path: at, message: BOOL_EXP_SHAPE.notArray(key) };
      // The items are reported at the list's own path, as the engine reports them.
      for (const item of value) {
        const problem = inner(item, at);
        if (problem) return problem;
      }
    }
  }
  return undefined;
}

export const dmlWhere: Schema<Record<string, unknown>> = {
  description: jsonObject.description,
  parse(value, path) {
    const object = jsonObject.parse(value, path);
    if (!object.ok) return object;
    const problem = shapeProblem(object.value, path);
    return problem ? { ok: false, problem } : object;
  },
};

/** The columns of a select: the where of a relationship's nested select is read with the arguments too. */
export const dmlColumns: Schema<unknown[]> = {
  description: array(json).description,
  parse(value, path) {
    const list = array(json).parse(value, path);
    if (!list.ok) return list;
    for (const [i, item] of list.value.entries()) {
      if (!isPlainObject(item)) continue;
      const at = childPath(path, i);
      const where = item.where === undefined ? undefined : dmlWhere.parse(item.where, childPath(at, 'where'));
      if (where && !where.ok) return where;
      const columns = Array.isArray(item.columns) ? dmlColumns.parse(item.columns, childPath(at, 'columns')) : undefined;
      if (columns && !columns.ok) return columns;
    }
    return list;
  },
};
