// Tracked functions with function permissions for the metadata-replacement fuzzer, in export form
// (functions.yaml, SPEC.md §2.2; permissions [{role}], §4.4): each generated table has two functions
// returning its rows, a fixed table that is never tracked has one too; a document tracks some of the
// functions of its tracked tables, with custom names and the permissions of roles (one that may
// select nothing among them: replace_metadata keeps it, decision dec.function_permission.replace-metadata).
// Plus what makes such a document invalid: role names the arguments refuse, functions the database
// lacks or cannot serve.
import fc from 'fast-check';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface FunctionEntry {
  function: { schema: string; name: string };
  configuration?: { custom_name: string };
  permissions?: { role: string }[];
}
export interface FunctionParts {
  tables: readonly { table: { schema: string; name: string } }[];
  functions?: FunctionEntry[];
}

/** The functions of a table: all its rows, and those above an id. */
const FORMS = ['rows', 'above'] as const;
/** A table the documents never track, and its function. */
const LOOSE = { table: 'loose', fn: 'loose_rows' };

/** The SQL of the functions of the tables in `schema` (names come from fixed lists). */
export const functionSql = (schema: string, tables: readonly { name: string }[]) =>
  [
    `create table ${schema}.${LOOSE.table} (id integer primary key);`,
    `create function ${schema}.${LOOSE.fn}() returns setof ${schema}.${LOOSE.table} language sql stable as $$ select * from ${schema}.${LOOSE.table} $$;`,
    ...tables.flatMap((t) => [
      `create function ${schema}.${t.name}_rows() returns setof ${schema}.${t.name} language sql stable as $$ select * from ${schema}.${t.name} $$;`,
      `create function ${schema}.${t.name}_above(n integer) returns setof ${schema}.${t.name} language sql stable as $$ select * from ${schema}.${t.name} where id > n $$;`,
    ]),
  ].join('\n');

/** Roles of function permissions: the document's roles, and one no table permission names. */
const FUNCTION_ROLES = ['r0', 'r1', 'fr'] as const;

/** Functions of the document's tables, tracked in a generated order, each with a custom name or not and the permissions of some roles. */
export function trackedFunctions(document: FunctionParts): fc.Arbitrary<FunctionEntry[]> {
  const candidates = document.tables.flatMap((t) => FORMS.map((form) => ({ schema: t.table.schema, name: `${t.table.name}_${form}` })));
  return fc.shuffledSubarray(candidates).chain((chosen) =>
    fc.tuple(
      ...chosen.map((fn) =>
        fc.record({ named: fc.boolean(), roles: fc.subarray([...FUNCTION_ROLES]) }).map(({ named, roles }): FunctionEntry => ({
          function: fn,
          ...(named ? { configuration: { custom_name: `${fn.name}_fn` } } : {}),
          // The export leaves an empty list out.
          ...(roles.length ? { permissions: roles.map((role) => ({ role })) } : {}),
        })),
      ),
    ),
  );
}

/** The root field of a tracked function (decision dec.functions.graphql), with its arguments. */
export function functionCall(entry: FunctionEntry): string {
  const field = entry.configuration?.custom_name ?? `${entry.function.schema}_${entry.function.name}`;
  return entry.function.name.endsWith('_above') ? `${field}(args: {n: 0})` : field;
}

/** The table whose rows a generated function returns. */
export const returnedTable = (entry: FunctionEntry) => entry.function.name.replace(/_(rows|above)$/, '');

/** Where a permission appended to the document's first function sits, and the document with it (a function of the first table when there is none). */
function withPermission<D extends FunctionParts>(d: D, role: string): { document: D; path: string } {
  const functions = d.functions ?? [];
  const first = functions[0] ?? { function: { ...d.tables[0]!.table, name: `${d.tables[0]!.table.name}_rows` } };
  const permissions = [...(first.permissions ?? []), { role }];
  return {
    document: { ...d, functions: [{ ...first, permissions }, ...functions.slice(1)] },
    path: `$.args.metadata.functions[0].permissions[${permissions.length - 1}].role`,
  };
}

/** Function permissions the arguments refuse whatever the database holds, and the answer that refuses each. */
export function functionRefusals<D extends FunctionParts>(): {
  kind: string;
  apply: (d: D) => D;
  answer: (d: D) => { path: string; error: string; code: string };
}[] {
  return [
    {
      kind: 'a function permission of an empty role',
      apply: (d) => withPermission(d, '').document,
      answer: (d) => ({ path: withPermission(d, '').path, error: 'empty string not allowed', code: 'parse-failed' }),
    },
    {
      kind: 'a function permission of a role with surrounding spaces',
      apply: (d) => withPermission(d, ' r0').document,
      answer: (d) => ({
        path: withPermission(d, ' r0').path,
        error: 'a role name may not have control characters or surrounding spaces',
        code: 'parse-failed',
      }),
    },
  ];
}

/** Function permissions of functions that cannot be served: kept and reported under allow_inconsistent_metadata, dropped with their function. */
export function functionInconsistencies<D extends FunctionParts>(
  schema: string,
): {
  kind: string;
  apply: (d: D) => D;
  reported: { type: string; name: string; reason: string; definition: Json };
}[] {
  const entry = (name: string): FunctionEntry => ({ function: { schema, name }, permissions: [{ role: 'r0' }, { role: 'r1' }] });
  const adding = (e: FunctionEntry) => (d: D) => ({ ...d, functions: [...(d.functions ?? []), e] });
  const reported = (e: FunctionEntry, reason: string) => ({
    type: 'function',
    name: `function ${schema}.${e.function.name} in source default`,
    reason: `Inconsistent object: ${reason}`,
    definition: e as unknown as Json,
  });
  const ghost = entry('ghost_rows');
  const loose = entry(LOOSE.fn);
  return [
    {
      kind: 'a permission of a function the database lacks',
      apply: adding(ghost),
      reported: reported(ghost, `no such function exists in postgres : "${schema}.ghost_rows"`),
    },
    {
      kind: 'a permission of a function whose table is not tracked',
      apply: adding(loose),
      reported: reported(loose, `function "${schema}.${LOOSE.fn}" cannot be tracked: the table "${schema}.${LOOSE.table}" it returns is not tracked`),
    },
  ];
}
