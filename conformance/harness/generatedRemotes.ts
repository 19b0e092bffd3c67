// Remote schemas for the schema-changes fuzzer (schemaChanges.ts): generated SDL with interfaces,
// unions and input objects, now and then one that breaks a rule of GraphQL (which must be refused),
// served by the mock server.
import fc from 'fast-check';
import { graphQLServer, introspectionServer } from './mockServer';

/** How a generated remote schema breaks the rules of GraphQL, if it does. */
export const REMOTE_FLAWS = ['none', 'missing-interface-field', 'wrong-interface-field-type', 'input-with-object-field', 'union-of-scalar'] as const;
export type RemoteFlaw = (typeof REMOTE_FLAWS)[number];

export interface RemoteSpec {
  readonly name: string;
  readonly interfaces: boolean;
  readonly union: boolean;
  readonly input: boolean;
  readonly flaw: RemoteFlaw;
}

export const remoteSpec = fc
  .record({
    name: fc.constantFrom('rs0', 'rs1'),
    interfaces: fc.boolean(),
    union: fc.boolean(),
    input: fc.boolean(),
    flaw: fc.oneof({ arbitrary: fc.constant('none' as const), weight: 3 }, { arbitrary: fc.constantFrom(...REMOTE_FLAWS.slice(1)), weight: 1 }),
  })
  // A flaw needs the part it breaks.
  .map((r) => ({
    ...r,
    interfaces: r.interfaces || r.flaw === 'missing-interface-field' || r.flaw === 'wrong-interface-field-type',
    union: r.union || r.flaw === 'union-of-scalar',
    input: r.input || r.flaw === 'input-with-object-field',
  }));

/** The SDL of a generated remote: its types carry its name, so that two remotes never share one. */
export function remoteSdl(r: RemoteSpec): string {
  const p = r.name.toUpperCase();
  const implementsNode = r.interfaces ? ` implements ${p}Node` : '';
  const catId = r.flaw === 'missing-interface-field' ? '' : r.flaw === 'wrong-interface-field-type' ? 'id: Int' : 'id: ID!';
  const parts = [
    `type ${p}Cat${implementsNode} { ${catId} meow: String }`,
    `type ${p}Dog${implementsNode} { id: ID! bark: Int }`,
    r.interfaces ? `interface ${p}Node { id: ID! }` : '',
    r.union ? `union ${p}Pet = ${p}Cat | ${r.flaw === 'union-of-scalar' ? 'String' : `${p}Dog`}` : '',
    r.input ? `input ${p}Filter { name: String, limit: Int = 2${r.flaw === 'input-with-object-field' ? `, cat: ${p}Cat` : ''} }` : '',
  ];
  const roots = [
    `${r.name}_hello(greeting: String = "hi"): String`,
    `${r.name}_cats${r.input ? `(filter: ${p}Filter)` : ''}: [${p}Cat!]!`,
    r.union ? `${r.name}_pets: [${p}Pet!]!` : '',
    r.interfaces ? `${r.name}_node(id: ID!): ${p}Node` : '',
  ];
  return `${parts.filter(Boolean).join('\n')}\ntype Query { ${roots.filter(Boolean).join(' ')} }`;
}

export function remoteHandler(path: string, r: RemoteSpec) {
  const sdl = remoteSdl(r);
  // A schema that is no valid GraphQL cannot be executed: its introspection is all it answers.
  if (r.flaw !== 'none') return introspectionServer(path, sdl);
  const p = r.name.toUpperCase();
  const cat = { __typename: `${p}Cat`, id: '1', meow: 'purr' };
  return graphQLServer(path, sdl, {
    [`${r.name}_hello`]: (args) => args.greeting,
    [`${r.name}_cats`]: () => [cat],
    [`${r.name}_pets`]: () => [cat, { __typename: `${p}Dog`, id: '2', bark: 3 }],
    [`${r.name}_node`]: (args) => ({ ...cat, id: args.id }),
  });
}
