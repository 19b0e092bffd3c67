// Wrapped types are made once per named type: a schema uses `[T!]!` and `T!` of a type many times.
import { GraphQLList, GraphQLNonNull, type GraphQLInputType, type GraphQLNullableType, type GraphQLOutputType } from 'graphql';

const nonNulls = new WeakMap<object, GraphQLNonNull<never>>();
const lists = new WeakMap<object, GraphQLNonNull<never>>();
const nullableLists = new WeakMap<object, GraphQLList<never>>();
const loose = new WeakMap<object, GraphQLList<never>>();
export const nonNull = <T extends GraphQLOutputType | GraphQLInputType>(t: T): GraphQLNonNull<T & GraphQLNullableType> => {
  let found = nonNulls.get(t);
  if (!found) nonNulls.set(t, (found = new GraphQLNonNull(t as never)));
  return found as GraphQLNonNull<T & GraphQLNullableType>;
};
/** `[T!]` */
export const listOf = <T extends GraphQLOutputType | GraphQLInputType>(t: T): GraphQLList<GraphQLNonNull<T & GraphQLNullableType>> => {
  let found = nullableLists.get(t);
  if (!found) nullableLists.set(t, (found = new GraphQLList(nonNull(t)) as never));
  return found as GraphQLList<GraphQLNonNull<T & GraphQLNullableType>>;
};
/** `[T!]!` */
export const list = <T extends GraphQLOutputType | GraphQLInputType>(t: T) => {
  let found = lists.get(t);
  if (!found) lists.set(t, (found = new GraphQLNonNull(listOf(t)) as never));
  return found as GraphQLNonNull<GraphQLList<GraphQLNonNull<T & GraphQLNullableType>>>;
};
const nullableItems = new WeakMap<object, GraphQLNonNull<never>>();
/** `[T]!` */
export const listOfNullable = <T extends GraphQLOutputType | GraphQLInputType>(t: T) => {
  let found = nullableItems.get(t);
  if (!found) nullableItems.set(t, (found = new GraphQLNonNull(new GraphQLList(t)) as never));
  return found as GraphQLNonNull<GraphQLList<T>>;
};
/** `[T]` */
export const looseList = <T extends GraphQLOutputType | GraphQLInputType>(t: T): GraphQLList<T> => {
  let found = loose.get(t);
  if (!found) loose.set(t, (found = new GraphQLList(t) as never));
  return found as GraphQLList<T>;
};
