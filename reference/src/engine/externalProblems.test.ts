// A remote schema that keeps the served schema from being valid in a way no check of its own
// found is left out and named as itself (decision dec.remote-schema.valid-schema), never pinned on
// a table, and never served. Remotes are introspected and checked before they get here, so the
// store below hands over schemas as they are.
import { buildSchema, type GraphQLSchema } from 'graphql';
import type { MetadataDocument, RemoteSchema } from '../../../spec';
import { loadConfig } from '../config';
import { introspectionOf } from '../db/introspection';
import { firstSchemaError } from '../execute/schemaValidity';
import type { RemoteSchemaStore } from '../remote/store';
import { ServedState } from './served';

const remote = (name: string): RemoteSchema => ({
  name,
  definition: { url: `http://127.0.0.1:1/${name}`, forward_client_headers: false, timeout_seconds: 60 },
});
const storeOf = (schemas: Record<string, GraphQLSchema>) =>
  ({
    state: (r: RemoteSchema) => ({
      key: JSON.stringify(r.definition),
      endpoint: { name: r.name, url: r.definition.url!, headers: {}, forwardClientHeaders: false, timeoutMs: 1000 },
      schema: schemas[r.name]!,
    }),
  }) as unknown as RemoteSchemaStore;

// Valid as graphql-js builds it from SDL, but a droid lacks its interface's id.
const broken = buildSchema('type Query { hero: Character } interface Character { id: ID! } type Droid implements Character { name: String }', {
  assumeValid: true,
  assumeValidSDL: true,
});
const fine = buildSchema('type Query { weather: Int }');

test('the remote that breaks the schema is an inconsistent remote_schema; the others and every schema are served', () => {
  // The broken one first: the search tries the newest first, and must not take the fine one for it.
  const document: MetadataDocument = { version: 2, tables: [], remote_schemas: [remote('broken'), remote('fine')] };
  const served = new ServedState(loadConfig({}), storeOf({ fine, broken }));
  const result = served.validated({ document, introspection: introspectionOf([]), enumValues: new Map() });
  expect(result.problems).toEqual([
    {
      type: 'remote_schema',
      reason: 'the remote schema "broken" cannot be used: Interface field Character.id expected but Droid does not provide it.',
      definition: remote('broken'),
    },
  ]);
  expect(firstSchemaError(result.cache)).toBeUndefined();
  expect(Object.keys(result.cache.admin.schema.getQueryType()!.getFields())).toEqual(['weather']);
});

test('with every remote valid nothing is left out', () => {
  const document: MetadataDocument = { version: 2, tables: [], remote_schemas: [remote('fine')] };
  const result = new ServedState(loadConfig({}), storeOf({ fine })).validated({ document, introspection: introspectionOf([]), enumValues: new Map() });
  expect(result.problems).toEqual([]);
});
