// A column's value as the answer gives it: an enum table's value by its name in the enum (upper case
// under graphql-default, decision 046), a PostGIS value as GeoJSON, any other as it is.
import { GraphQLEnumType, type GraphQLSchema } from 'graphql';
import type { ColumnModel, TableModel } from '../../schema/model';
import { conventionOf } from '../../schema/typeNames';
import { sql, type Fragment } from './context';
import { outputValue } from './geo';

/** `value`, a read of column `c` of `t`, as the answer gives it in `schema`. */
export function columnOutput(schema: GraphQLSchema, t: TableModel, c: ColumnModel, value: Fragment): Fragment {
  // Enum values are GraphQL names, ASCII only: upper() and the schema's upper case agree.
  const named = c.enumType !== undefined && conventionOf(t) === 'graphql-default' && schema.getType(c.enumType) instanceof GraphQLEnumType;
  return named ? sql.query`upper(${value})` : outputValue(c.column, value);
}
