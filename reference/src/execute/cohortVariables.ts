// GraphQL variables a subscription's cohort reads from its rows (decision 026): a variable used only
// as the operand of a comparison with a column (`where: {id: {_eq: $id}}`, `item_by_pk(id: $id)`)
// is read in SQL from the row of its request, so that subscribers whose variables differ there
// share one statement. Any other use (a limit, a list, a directive, an argument of a function) keeps
// it bound as its value: there it may shape the statement, and other values get other statements.
import { getNamedType, Kind, TypeInfo, visit, visitWithTypeInfo, type ASTNode, type DocumentNode, type GraphQLSchema } from 'graphql';
import { isComparisonExp } from '../schema/filterTypes';
import { COMPARISON_OPERATORS } from '../sql/graphql/boolExp';
import { VariableRead, type CohortSession } from '../sql/graphql/context';

/**
 * The variables of `document` used nowhere but as the operand of a comparison with a column, or as
 * an argument of a subscription's root field that `byPrimaryKey` names (its arguments are the key's
 * columns, each compared with its value).
 */
export function comparedOnly(schema: GraphQLSchema, document: DocumentNode, byPrimaryKey: (field: string) => boolean): Set<string> {
  const typeInfo = new TypeInfo(schema);
  const compared = new Set<string>();
  const other = new Set<string>();
  const isOperand = (where: ASTNode): boolean => {
    if (where.kind === Kind.OBJECT_FIELD) {
      return COMPARISON_OPERATORS.has(where.name.value) && isComparisonExp(getNamedType(typeInfo.getParentInputType()) ?? undefined);
    }
    // Else an argument (of a field or a directive), here of the root field: validation refuses a
    // directive on it that reads a variable.
    return typeInfo.getParentType() === schema.getSubscriptionType() && byPrimaryKey(typeInfo.getFieldDef()?.name ?? '');
  };
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Variable(node, _key, parent) {
        const at = parent as ASTNode | readonly ASTNode[] | undefined;
        if (!at || Array.isArray(at)) return void other.add(node.name.value);
        const where = at as ASTNode;
        if (where.kind === Kind.VARIABLE_DEFINITION) return;
        (isOperand(where) ? compared : other).add(node.name.value);
      },
    }),
  );
  for (const name of other) compared.delete(name);
  return compared;
}

/**
 * The most JSON text a request's variables may put in a cohort's row: one statement carries a batch
 * of rows, so a request whose compared values are larger keeps them bound (a statement of its own)
 * rather than making its batch's statement that much larger for all.
 */
export const MAX_ROW_VARIABLES_BYTES = 16 * 1024;

/** A value that reaches a cast from JSON's text as it would bound: a string, number, boolean or null. */
const isScalar = (value: unknown) => value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/**
 * The variables a cohort's statement is compiled with: those compared only, when their value is
 * scalar (or, for `_in` and `_nin`, a list of scalars), are read from the cohort's row; the others
 * are their values. Past MAX_ROW_VARIABLES_BYTES, none is read from the row.
 */
export function cohortVariables(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Readonly<Record<string, unknown>>,
  cohort: CohortSession,
  byPrimaryKey: (field: string) => boolean,
): Record<string, unknown> {
  const compared = comparedOnly(schema, document, byPrimaryKey);
  const out: Record<string, unknown> = { ...variables };
  let bytes = 0;
  for (const name of compared) {
    const value = variables[name];
    if (!(isScalar(value) || (Array.isArray(value) && value.every(isScalar)))) continue;
    bytes += Buffer.byteLength(JSON.stringify(value)) + Buffer.byteLength(name) + 4;
    if (bytes > MAX_ROW_VARIABLES_BYTES) return { ...variables };
    out[name] = new VariableRead(cohort, name, value);
  }
  return out;
}
