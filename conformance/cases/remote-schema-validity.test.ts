// A remote schema whose own schema breaks the rules of GraphQL cannot be served (decision
// dec.remote-schema.valid-schema): it is refused when added or reloaded, named as itself, and a
// stored one that became invalid is an inconsistent remote_schema while the rest is served.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { graphQLServer, introspectionServer, useMockServer } from '../harness/mockServer';
import { useTarget } from '../harness/target';

const target = useTarget();
const remote = useMockServer();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const exported = async () => (await run('export_metadata', {})).body as Record<string, unknown>;
const gql = async (query: string, headers: Record<string, string> = target.adminHeaders()) => (await target.graphql(query, undefined, { headers })).body;
const typename = { data: { __typename: 'query_root' } };

const starwars = (droid: string, character = 'id: ID! name: String') => `
  type Query { hero: Character, droid: Droid }
  interface Character { ${character} }
  type Human implements Character { ${character} }
  type Droid implements Character { ${droid} }
`;
/** The engine's reason alone (err.remote-schema-error.invalid-schema). */
const unusable = (reason: string) => ({ path: '$.args', error: reason, code: 'remote-schema-error' });
const definition = (path: string) => ({ url: `${remote.url}${path}`, forward_client_headers: false, timeout_seconds: 60 });
const MISSING_ID = "Interface field 'Character'.\"id\" expected, but 'Droid' does not provide it";

beforeEach(async () => {
  await target.reset();
  expectResponse(await run('clear_metadata', {}), 200, ok);
});

test(
  covers(
    ['dec.remote-schema.valid-schema', 'err.remote-schema-error.invalid-schema', 'op.add_remote_schema'],
    'an object that lacks a field of its interface: the remote is refused, nothing changes',
  ),
  async () => {
    remote.use(introspectionServer('/starwars', starwars('name: String')));
    expectResponse(await run('add_remote_schema', { name: 'starwars', definition: definition('/starwars') }), 400, unusable(MISSING_ID));
    expect(await exported()).toEqual({ version: 2, tables: [] });
    expectResponse(await run('get_inconsistent_metadata', {}), 200, []);
    expect(await gql('{ __typename }')).toEqual(typename);
    expect(await gql('{ __schema { queryType { name } } }')).toEqual({ data: { __schema: { queryType: { name: 'query_root' } } } });
  },
);

test(
  covers(
    ['dec.remote-schema.valid-schema', 'err.remote-schema-error.invalid-schema'],
    "with a role's table permission too, the reason is the remote's, not a table's",
  ),
  async () => {
    await target.sql('drop schema if exists rsv cascade; create schema rsv; create table rsv.item (id int primary key); insert into rsv.item values (1)');
    const item = { schema: 'rsv', name: 'item' };
    expectResponse(
      await run('bulk', [
        { type: 'track_table', args: { table: item } },
        { type: 'create_select_permission', args: { table: item, role: 'user', permission: { columns: ['id'], filter: {} } } },
      ]),
      200,
    );
    const before = await exported();
    remote.use(introspectionServer('/starwars', starwars('name: String')));
    expectResponse(await run('add_remote_schema', { name: 'starwars', definition: definition('/starwars') }), 400, unusable(MISSING_ID));
    expect(await exported()).toEqual(before);
    for (const headers of [target.adminHeaders(), { ...target.adminHeaders(), 'x-engine-role': 'user' }])
      expect(await gql('{ rsv_item { id } }', headers)).toEqual({ data: { rsv_item: [{ id: 1 }] } });
  },
);

describe("the engine's reasons for an object that does not implement its interface", () => {
  const cases: [string, string, string, string][] = [
    [
      'a field of another type',
      'id: String name: String',
      'id: ID! name: String',
      'The type of Object field \'Droid\'."id" (String) is not the same type/sub type of Interface field \'Character\'."id" (ID!)',
    ],
    [
      "an argument of the interface's field missing",
      'id: ID! friends: [Character]',
      'id: ID! friends(first: Int): [Character]',
      'Interface field argument \'Character\'."friends"("first":) required, but Object field \'Droid\'."friends" does not provide it',
    ],
    [
      'an argument of another type',
      'id: ID! friends(first: String): [Character]',
      'id: ID! friends(first: Int): [Character]',
      'Interface field argument \'Character\'."friends"("first":) expects type Int, but \'Droid\'."friends"("first":) has type String',
    ],
    [
      'a required argument the interface does not have',
      'id: ID! friends(first: Int, after: String!): [Character]',
      'id: ID! friends(first: Int): [Character]',
      'Object field argument \'Droid\'."friends"("after":) is of required type String!, but is not provided by Interface field \'Character\'."friends"',
    ],
  ];
  test.each(cases)(covers(['dec.remote-schema.valid-schema', 'err.remote-schema-error.invalid-schema'], '%s'), async (_what, droid, character, reason) => {
    remote.use(introspectionServer('/starwars', starwars(droid, character)));
    expectResponse(await run('add_remote_schema', { name: 'starwars', definition: definition('/starwars') }), 400, unusable(reason));
    expect(await exported()).toEqual({ version: 2, tables: [] });
  });

  test(
    covers(['dec.remote-schema.valid-schema', 'op.add_remote_schema'], 'a stricter type and an optional extra argument implement the interface'),
    async () => {
      remote.use(
        introspectionServer(
          '/starwars',
          starwars(
            'id: ID! name: String! friends(after: String, first: Int!, since: Int): [Droid]',
            'id: ID! name: String friends(first: Int!, after: String): [Character]',
          ),
        ),
      );
      expectResponse(await run('add_remote_schema', { name: 'starwars', definition: definition('/starwars') }), 200, ok);
      expect(await gql('{ __type(name: "Droid") { interfaces { name } } }')).toEqual({ data: { __type: { interfaces: [{ name: 'Character' }] } } });
    },
  );
});

test(
  covers(
    ['dec.remote-schema.valid-schema', 'err.remote-schema-error.invalid-schema'],
    "what else graphql-js finds wrong in the remote's schema refuses it too, in graphql-js's words",
  ),
  async () => {
    remote.use(introspectionServer('/broken', 'type Query { box(where: Where): Int } input Where'));
    expectResponse(
      await run('add_remote_schema', { name: 'broken', definition: definition('/broken') }),
      400,
      unusable('Input Object type Where must define one or more fields.'),
    );
  },
);

test(
  covers(
    ['dec.remote-schema.valid-schema', 'op.reload_metadata', 'op.reload_remote_schema', 'op.drop_inconsistent_metadata', 'rule.availability.inconsistent'],
    'a remote that became invalid is an inconsistent remote_schema; every schema is still served',
  ),
  async () => {
    remote.use(graphQLServer('/starwars', starwars('id: ID! name: String'), { hero: () => null, droid: () => ({ id: 'R2', name: 'R2-D2' }) }));
    expectResponse(await run('add_remote_schema', { name: 'starwars', definition: definition('/starwars') }), 200, ok);
    expect(await gql('{ droid { name } }')).toEqual({ data: { droid: { name: 'R2-D2' } } });
    remote.use(introspectionServer('/starwars', starwars('name: String')));
    expectResponse(await run('reload_remote_schema', { name: 'starwars' }), 400, unusable(MISSING_ID));
    const inconsistent = {
      type: 'remote_schema',
      name: 'remote_schema starwars',
      reason: `Inconsistent object: ${MISSING_ID}`,
      definition: { name: 'starwars', definition: definition('/starwars') },
    };
    expectResponse(await run('reload_metadata', { reload_remote_schemas: true }), 200, { ...ok, is_consistent: false, inconsistent_objects: [inconsistent] });
    expectResponse(await run('get_inconsistent_metadata', {}), 200, [inconsistent]);
    expect(await gql('{ __typename }')).toEqual(typename);
    expectResponse(await run('drop_inconsistent_metadata', {}), 200, ok);
    expect(await exported()).toEqual({ version: 2, tables: [] });
  },
);
