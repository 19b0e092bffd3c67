// The statement of a remote relationship to a table of a source (decision
// dec.remote-relationship.to-source): the rows' distinct values to join on arrive as one JSON
// parameter, and each set gets the field's value (an object, a list or an aggregate) with the
// role's permissions and the client's arguments, in the order of the sets.
import type { SelectionSetNode } from 'graphql';
import type { SourceRelationshipModel, TableModel } from '../../schema/model';
import { alias as newAlias, columnType, sql, type Fragment } from './context';
import { relationshipJson, type SelectArgs, type SelectEnvironment } from './select';

/** A bound value that stands for a join's sets of values to join on, replaced by their JSON text when the statement runs. */
export interface JoinKeys {
  readonly joinKeys: string;
}

/** The position of each set in the parameter: the answers come back in this order. */
export const JOIN_INDEX = '__i';

/** The name of the parameter's member that holds the value of the mapping's i-th column. */
export const joinKeyName = (i: number) => `k${i}`;

/** `(select json_agg(value per set order by set))` over the sets bound at `keysValue`. */
export function sourceJoinJson(
  keysValue: JoinKeys,
  env: SelectEnvironment,
  rel: SourceRelationshipModel,
  target: TableModel,
  aggregate: boolean,
  args: SelectArgs,
  selectionSet: SelectionSetNode | undefined,
): Fragment {
  const keys = newAlias('keys');
  const value = newAlias('joined');
  const columns = rel.mapping.map(([, remote], i) => {
    // The target's column as the database has it (a relationship is served only where it is there):
    // the role need not read it to join on it.
    const c = target.db.columns.find((d) => d.name === remote)!;
    return sql.query`${sql.identifier(joinKeyName(i))} ${columnType(c)}`;
  });
  const mapping = rel.mapping.map(([, remote], i): [string, string] => [joinKeyName(i), remote]);
  const json = relationshipJson(env, { kind: rel.kind, mapping }, target, keys, aggregate, args, selectionSet);
  const index = sql.identifier(JOIN_INDEX);
  return sql.query`(select coalesce(json_agg(${value}.j order by ${keys}.${index}), '[]'::json)
    from jsonb_to_recordset(${sql.value(keysValue)}::jsonb) as ${keys}(${index} integer, ${sql.join(columns, ', ')})
    cross join lateral (select ${json} as j) as ${value})`;
}
