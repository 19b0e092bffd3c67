// What is made from a remote's schema and a piece of metadata text, made once: kept while the
// schema lives (a remote introspected again is a new schema).
import type { GraphQLSchema } from 'graphql';

export function perSchema<T>(make: (schema: GraphQLSchema, key: string) => T): (schema: GraphQLSchema, key: string) => T {
  const made = new WeakMap<GraphQLSchema, Map<string, T>>();
  return (schema, key) => {
    let known = made.get(schema);
    if (!known) made.set(schema, (known = new Map()));
    if (!known.has(key)) known.set(key, make(schema, key));
    return known.get(key)!;
  };
}
