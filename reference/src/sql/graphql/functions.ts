// Calls of tracked functions inside compiled queries (SPEC.md §4.3): arguments bound and cast to
// their types, defaults left to PostgreSQL, the session argument filled with the session variables.
import type { Callee } from '../../schema/functions';
import { CompileError, sql, typedValue, type CompileContext, type Fragment } from './context';

/**
 * `schema.fn(name => value, …)`, as a FROM item or a value; positional when some argument has no
 * name. `row` is the row a computed field is computed for.
 */
export function functionCall(
  env: Pick<CompileContext, 'sessionVariables'>,
  fn: Callee,
  args: Record<string, unknown> | null | undefined,
  row?: Fragment,
): Fragment {
  const given = args ?? {};
  const named = fn.arguments.every((a) => a.name !== null);
  const parts: Fragment[] = [];
  let skipped: string | undefined;
  for (const a of fn.arguments) {
    let value: Fragment | undefined;
    if (a.row) value = row;
    else if (a.session) value = typedValue(a.column, { 'x-engine-role': 'admin', ...env.sessionVariables });
    else if (given[a.field] !== undefined && given[a.field] !== null) value = typedValue(a.column, given[a.field]);
    // A tracked function's arguments are all nullable in its schema (decision dec.functions.argument-types):
    // one without a default may be null, not left out.
    else if (!a.hasDefault && given[a.field] === undefined && row === undefined)
      throw new CompileError('Non default arguments cannot be omitted', 'not-supported');
    else if (!a.hasDefault) value = typedValue(a.column, null);
    if (value === undefined) {
      skipped ??= a.field;
      continue;
    }
    if (named) parts.push(sql.query`${sql.identifier(a.name!)} => ${value}`);
    else if (skipped !== undefined)
      throw new CompileError(`argument ${JSON.stringify(a.field)} of ${fn.field} needs ${JSON.stringify(skipped)} too: its arguments have no names`);
    else parts.push(value);
  }
  return sql.query`${sql.identifier(fn.db.schema, fn.db.name)}(${sql.join(parts, ', ')})`;
}
