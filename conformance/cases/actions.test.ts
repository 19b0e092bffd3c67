// Custom types (SPEC.md §2.7, set_custom_types §4.3) and actions (§2.2 actions.yaml; operations
// not shown by SPEC.md: the engine's documented forms). The handlers are msw handlers on loopback.
import { branded } from '../harness/brand';
import { HttpResponse, http, delay } from 'msw';
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql, musicMetadata } from '../harness/fixtures';
import { graphQLServer, useMockServer } from '../harness/mockServer';
import { useTarget } from '../harness/target';
import { scaled, until } from '../harness/wait';

const target = useTarget();
const handlers = useMockServer();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const exported = async () => (await run('export_metadata', {})).body as Record<string, unknown>;
const refused = (code: string, error: string, path = '$.args') => ({ path, error, code });
const asRole = (role: string, extra: Record<string, string> = {}) => ({ ...target.adminHeaders(), 'x-engine-role': role, ...extra });

const TYPES = {
  scalars: [{ name: 'Money', description: 'an amount in cents' }],
  enums: [{ name: 'Currency', values: [{ value: 'EUR' }, { value: 'NOK', description: 'kroner' }] }],
  input_objects: [
    {
      name: 'PriceInput',
      fields: [
        { name: 'amount', type: 'Int!' },
        { name: 'currency', type: 'Currency!' },
      ],
    },
  ],
  objects: [
    {
      name: 'Quote',
      description: 'a price quote',
      fields: [
        { name: 'id', type: 'ID!' },
        { name: 'total', type: 'Money' },
        { name: 'currency', type: 'Currency!' },
        { name: 'notes', type: '[String!]' },
      ],
    },
  ],
};
const action = (name: string, definition: Record<string, unknown>) => ({
  name,
  definition: { handler: `${handlers.url}/${name}`, output_type: 'Quote!', ...definition },
});
const quoteArgs = [
  { name: 'price', type: 'PriceInput!' },
  { name: 'note', type: 'String' },
];

beforeAll(async () => {
  await target.sql(fixtureSql('music'));
});
beforeEach(async () => {
  await target.reset();
  expectResponse(await target.metadata(musicMetadata(['artist'], [])), 200);
  expectResponse(await run('set_custom_types', TYPES), 200, ok);
});

test(
  covers(
    ['op.create_action', 'op.set_custom_types', 'dec.actions.forms'],
    'a synchronous action: the handler gets the action, input, session variables and query; its answer is completed against the output type',
  ),
  async () => {
    handlers.use(http.post('/quote', () => HttpResponse.json({ id: 'q1', total: 1250, currency: 'NOK', notes: ['net'], extra: 'ignored' })));
    expectResponse(await run('create_action', { ...action('quote', { arguments: quoteArgs }), comment: 'price a thing' }), 200, ok);
    const query = 'mutation M($p: PriceInput!) { q: quote(price: $p, note: "n") { __typename id total cur: currency notes } }';
    expectResponse(await target.graphql(query, { p: { amount: 1250, currency: 'NOK' } }), 200, {
      data: { q: { __typename: 'Quote', id: 'q1', total: 1250, cur: 'NOK', notes: ['net'] } },
    });
    expect(handlers.requestsTo('/quote').map((r) => r.body)).toEqual([
      {
        action: { name: 'quote' },
        input: { price: { amount: 1250, currency: 'NOK' }, note: 'n' },
        session_variables: branded({ 'x-engine-role': 'admin' }),
        request_query: query,
      },
    ]);
    const doc = await exported();
    expect(doc.custom_types).toEqual(TYPES);
    expect(doc.actions).toEqual([
      {
        name: 'quote',
        definition: {
          kind: 'synchronous',
          type: 'mutation',
          arguments: quoteArgs,
          output_type: 'Quote!',
          handler: `${handlers.url}/quote`,
          forward_client_headers: false,
          timeout: 30,
        },
        comment: 'price a thing',
      },
    ]);
    // Its types are in the schema, with their descriptions.
    expectResponse(await target.graphql('{ __type(name: "Quote") { description fields { name } } }'), 200, {
      data: { __type: { description: 'a price quote', fields: [{ name: 'id' }, { name: 'total' }, { name: 'currency' }, { name: 'notes' }] } },
    });
  },
);

test(covers(['op.create_action', 'dec.actions.forms'], 'a query action mixes with tables and remote schemas in one document'), async () => {
  handlers.use(
    http.post('/rate', async ({ request }) => {
      const body = (await request.json()) as { input: { currency: string } };
      return HttpResponse.json(body.input.currency === 'EUR' ? 'RATE_EUR' : 'RATE_OTHER');
    }),
    graphQLServer('/remote', 'type Query { hello: String! }', { hello: () => 'world' }),
  );
  expectResponse(
    await run('set_custom_types', { ...TYPES, enums: [...TYPES.enums, { name: 'Rate', values: [{ value: 'RATE_EUR' }, { value: 'RATE_OTHER' }] }] }),
    200,
    ok,
  );
  expectResponse(
    await run('create_action', action('rate', { type: 'query', arguments: [{ name: 'currency', type: 'Currency!' }], output_type: 'Rate' })),
    200,
    ok,
  );
  expectResponse(await run('add_remote_schema', { name: 'r', definition: { url: `${handlers.url}/remote` } }), 200, ok);
  const r = await target.graphql('{ music_artist(where: {id: {_eq: 2}}) { name } rate(currency: EUR) other: rate(currency: NOK) hello }');
  expectResponse(r, 200, { data: { music_artist: [{ name: 'Brass Tacks' }], rate: 'RATE_EUR', other: 'RATE_OTHER', hello: 'world' } });
  // A query action is not in the mutation root, nor among subscriptions.
  expectResponse(await target.graphql('{ __schema { subscriptionType { fields { name } } } }'), 200, {
    data: { __schema: { subscriptionType: { fields: expect.not.arrayContaining([{ name: 'rate' }]) } } },
  });
});

test(
  covers(
    ['op.create_action', 'err.graphql.action-failed', 'err.graphql.action-response'],
    "handler errors: a 4xx is the client's error with its extensions; no answer, a 5xx, a late answer or a wrong shape is a clear error",
  ),
  async () => {
    expectResponse(await run('create_action', action('quote', { arguments: quoteArgs, timeout: 1 })), 200, ok);
    const q = 'mutation { quote(price: {amount: 1, currency: EUR}) { id } }';
    handlers.use(http.post('/quote', () => HttpResponse.json({ message: 'too cheap', extensions: { code: 'price-too-low', minimum: 5 } }, { status: 400 })));
    expectResponse(await target.graphql(q), 200, { errors: [{ message: 'too cheap', extensions: { path: '$', code: 'price-too-low', minimum: 5 } }] });
    handlers.use(http.post('/quote', () => new HttpResponse('{"oops": true}', { status: 500, headers: { 'content-type': 'application/json' } })));
    expectResponse(await target.graphql(q), 200, {
      errors: [{ message: 'the handler of action "quote" did not answer: it answered 500', extensions: { path: '$', code: 'unexpected' } }],
    });
    handlers.use(http.post('/quote', () => HttpResponse.json({ total: 3 })));
    expectResponse(await target.graphql(q), 200, {
      errors: [
        {
          message: 'the handler of action "quote" answered what its output type does not allow: Cannot return null for non-nullable field Quote.id.',
          extensions: { path: '$', code: 'unexpected' },
        },
      ],
    });
    handlers.use(http.post('/quote', () => HttpResponse.json({ id: 'x', currency: 'USD' })));
    expectResponse(await target.graphql('mutation { quote(price: {amount: 1, currency: EUR}) { id currency } }'), 200, {
      errors: [
        {
          message: 'the handler of action "quote" answered what its output type does not allow: Enum "Currency" cannot represent value: "USD"',
          extensions: { path: '$', code: 'unexpected' },
        },
      ],
    });
    // The handler answers three seconds (on this machine's scale) late: the engine's answer comes before that.
    let handlerAnswered = false;
    handlers.use(
      http.post('/quote', async () => {
        await delay(scaled(3000));
        handlerAnswered = true;
        return HttpResponse.json({ id: 'late', currency: 'EUR' });
      }),
    );
    expectResponse(await target.graphql(q), 200, {
      errors: [{ message: 'the handler of action "quote" did not answer: it did not answer within 1 s', extensions: { path: '$', code: 'unexpected' } }],
    });
    expect({ handlerAnswered }).toEqual({ handlerAnswered: false });
  },
);

test(
  covers(
    [
      'op.create_action_permission',
      'op.drop_action_permission',
      'err.already-exists.action-permission',
      'err.not-exists.action-permission',
      'err.constraint-violation.admin-action-permission',
      'dec.actions.forms',
    ],
    'a role uses an action only with a permission',
  ),
  async () => {
    handlers.use(http.post('/quote', () => HttpResponse.json({ id: 'q', currency: 'EUR' })));
    expectResponse(await run('create_action', action('quote', { arguments: quoteArgs })), 200, ok);
    const q = 'mutation { quote(price: {amount: 1, currency: EUR}) { id } }';
    // The role has no mutations at all yet.
    expectResponse(await target.graphql(q, undefined, { headers: asRole('shopper') }), 200, {
      errors: [{ message: 'the schema is not configured for mutation operations', extensions: { path: '$', code: 'validation-failed' } }],
    });
    expectResponse(await run('create_action_permission', { action: 'quote', role: 'shopper', comment: 'c' }), 200, ok);
    expectResponse(await target.graphql(q, undefined, { headers: asRole('shopper', { 'x-engine-user-id': '7' }) }), 200, { data: { quote: { id: 'q' } } });
    expect(handlers.requestsTo('/quote').at(-1)!.body).toEqual(
      expect.objectContaining({ session_variables: branded({ 'x-engine-role': 'shopper', 'x-engine-user-id': '7' }) }),
    );
    expect((await exported()).actions).toEqual([expect.objectContaining({ name: 'quote', permissions: [{ role: 'shopper', comment: 'c' }] })]);
    const before = await exported();
    expectResponse(
      await run('create_action_permission', { action: 'quote', role: 'shopper' }),
      400,
      refused('already-exists', 'permission for role "shopper" is already defined on "quote"'),
    );
    expectResponse(
      await run('create_action_permission', { action: 'quote', role: 'admin' }),
      400,
      refused('constraint-violation', 'in action "quote": cannot define permission for admin role'),
    );
    expectResponse(await run('create_action_permission', { action: 'nope', role: 'x' }), 400, refused('not-exists', 'action with name "nope" does not exist'));
    expectResponse(
      await run('drop_action_permission', { action: 'quote', role: 'other' }),
      400,
      refused('not-exists', 'permission for role: "other" is not defined on "quote"'),
    );
    expect(await exported()).toEqual(before);
    expectResponse(await run('drop_action_permission', { action: 'quote', role: 'shopper' }), 200, ok);
    expect((await exported()).actions).toEqual([expect.not.objectContaining({ permissions: expect.anything() })]);
    expect((await target.graphql(q, undefined, { headers: asRole('shopper') })).body).toHaveProperty('errors');
  },
);

test(
  covers(
    [
      'op.set_custom_types',
      'err.constraint-violation.custom-types',
      'err.validation-failed.custom-types',
      'err.invalid-configuration.custom-types',
      'err.dependency-error.drop',
    ],
    'set_custom_types refuses bad types and types an action still uses, changing nothing',
  ),
  async () => {
    expectResponse(await run('create_action', action('quote', { arguments: quoteArgs })), 200, ok);
    const before = await exported();
    const bad = async (types: unknown, error: string, code = 'constraint-violation') =>
      expectResponse(await run('set_custom_types', types), 400, refused(code, `invalid custom types: ${error}`));
    const unreadable = (types: unknown, error: string) => bad(types, error, 'validation-failed');
    await unreadable({ scalars: [{ name: 'not valid' }] }, '"not valid" is not a valid GraphQL name');
    await bad({ scalars: [{ name: 'Money' }], enums: [{ name: 'Money', values: [{ value: 'A' }] }] }, 'the type name "Money" is defined more than once');
    await bad({ scalars: [{ name: 'String' }] }, 'the type name "String" is defined more than once');
    await bad({ objects: [{ name: 'O', fields: [{ name: 'f', type: 'Nope' }] }] }, 'field "f" of "O": the type "Nope" is not defined');
    await unreadable({ objects: [{ name: 'O', fields: [{ name: 'f', type: '[Int' }] }] }, 'field "f" of "O": "[Int" is not a GraphQL type');
    await bad(
      { objects: [{ name: 'O', fields: [{ name: 'f', type: 'Int' }] }], input_objects: [{ name: 'I', fields: [{ name: 'o', type: 'O' }] }] },
      'field "o" of "I": "O" is an object type, which cannot be an input',
    );
    await bad({ enums: [{ name: 'E', values: [{ value: 'A' }, { value: 'A' }] }] }, 'the value "A" of enum "E" is defined more than once');
    for (const value of ['true', 'false', 'null', 'not-a-name'])
      await unreadable({ enums: [{ name: 'E', values: [{ value }] }] }, `"${value}" (a value of enum "E") is not a valid enum value`);
    await unreadable({ objects: [{ name: 'O', fields: [{ name: 'bad name', type: 'Int' }] }] }, '"bad name" (a field of "O") is not a valid GraphQL name');
    await bad(
      {
        input_objects: [
          {
            name: 'I',
            fields: [
              { name: 'f', type: 'Int' },
              { name: 'f', type: 'String' },
            ],
          },
        ],
      },
      'the field "f" of "I" is defined more than once',
    );
    await bad(
      { objects: [{ name: 'O', fields: [{ name: 'i', type: 'I' }] }], input_objects: [{ name: 'I', fields: [{ name: 'n', type: 'Int' }] }] },
      'field "i" of "O": "I" is an input object type, which cannot be an output',
    );
    const rel = (r: Record<string, unknown>) => ({
      objects: [
        {
          name: 'O',
          fields: [
            { name: 'artist_id', type: 'Int' },
            { name: 'o', type: 'O' },
          ],
          relationships: [{ name: 'artist', type: 'object', remote_table: { schema: 'music', name: 'artist' }, field_mapping: { artist_id: 'id' }, ...r }],
        },
      ],
    });
    await bad(rel({ remote_table: { schema: 'music', name: 'album' } }), 'relationship "artist" of "O": the table "music.album" is not tracked');
    await bad(rel({ field_mapping: { artist_id: 'nope' } }), 'relationship "artist" of "O": "nope" is not a column of "music.artist"');
    await bad(rel({ field_mapping: { missing: 'id' } }), 'relationship "artist" of "O": "missing" is not a field of "O"');
    await bad(rel({ field_mapping: { o: 'id' } }), 'relationship "artist" of "O": the field "o" is an object, not a scalar');
    await bad(rel({ name: 'o' }), 'relationship "o" of "O": the name is taken by a field or another relationship');
    await unreadable(rel({ name: 'two words' }), 'relationship "two words" of "O": the name is not a valid GraphQL name');
    await bad(rel({ field_mapping: {} }), 'relationship "artist" of "O": field_mapping is empty');
    const listed = { name: 'artists', type: 'array', remote_table: { schema: 'music', name: 'artist' }, field_mapping: { ids: 'id' } };
    const withList = { objects: [{ name: 'O', fields: [{ name: 'ids', type: '[Int!]' }], relationships: [listed] }] };
    await bad(withList, 'relationship "artists" of "O": the field "ids" is a list', 'invalid-configuration');
    // A tracked table that the database no longer has.
    await target.sql('create table music.vanishing (id int primary key)');
    expectResponse(await run('track_table', { table: { schema: 'music', name: 'vanishing' } }), 200, ok);
    await target.sql('drop table music.vanishing');
    await bad(rel({ remote_table: { schema: 'music', name: 'vanishing' } }), 'relationship "artist" of "O": the table "music.vanishing" does not exist');
    expectResponse(await run('untrack_table', { table: { schema: 'music', name: 'vanishing' } }), 200, ok);
    // Valid types that leave out one the action uses.
    expectResponse(
      await run('set_custom_types', { ...TYPES, input_objects: [] }),
      400,
      refused('dependency-error', 'cannot drop due to the following dependent objects : action "quote" (uses "PriceInput")'),
    );
    expect(await exported()).toEqual(before);
    // A relationship to a tracked table is accepted and exported as given.
    expectResponse(await run('set_custom_types', { ...TYPES, objects: [...TYPES.objects, ...rel({}).objects] }), 200, ok);
    expect((await exported()).custom_types).toEqual({ ...TYPES, objects: [...TYPES.objects, ...rel({}).objects] });
  },
);

test(covers(['op.create_action', 'op.set_custom_types'], 'an action of built-in types needs no custom types'), async () => {
  expectResponse(await run('set_custom_types', {}), 200, ok);
  expect((await exported()).custom_types).toBeUndefined();
  handlers.use(http.post('/double', async ({ request }) => HttpResponse.json(((await request.json()) as { input: { n: number } }).input.n * 2)));
  expectResponse(await run('create_action', action('double', { type: 'query', arguments: [{ name: 'n', type: 'Int!' }], output_type: 'Int!' })), 200, ok);
  expectResponse(await target.graphql('{ double(n: 21) }'), 200, { data: { double: 42 } });
  expectResponse(
    await run('create_action', action('nothing', { output_type: 'Quote' })),
    400,
    refused('validation-failed', 'invalid action "nothing": output_type: the type "Quote" is not defined'),
  );
});

test(
  covers(
    [
      'op.create_action',
      'op.update_action',
      'op.drop_action',
      'err.already-exists.action',
      'err.not-exists.action',
      'err.validation-failed.action',
      'err.remote-schema-conflicts.graphql-name',
    ],
    'create_action refuses what could not be served; update_action keeps the permissions; drop_action removes it',
  ),
  async () => {
    handlers.use(
      http.post('/quote', () => HttpResponse.json({ id: 'q', currency: 'EUR' })),
      http.post('/quote2', () => HttpResponse.json({ id: 'q2', currency: 'NOK' })),
    );
    expectResponse(await run('create_action', action('quote', { arguments: quoteArgs })), 200, ok);
    expectResponse(await run('create_action_permission', { action: 'quote', role: 'shopper' }), 200, ok);
    const before = await exported();
    expectResponse(await run('create_action', action('quote', {})), 400, refused('already-exists', 'action with name "quote" already exists'));
    expectResponse(
      await run('create_action', action('a1', { output_type: 'Nope' })),
      400,
      refused('validation-failed', 'invalid action "a1": output_type: the type "Nope" is not defined'),
    );
    expectResponse(
      await run('create_action', action('a2', { output_type: 'PriceInput' })),
      400,
      refused('validation-failed', 'invalid action "a2": output_type: "PriceInput" is an input object type, which cannot be an output'),
    );
    expectResponse(
      await run('create_action', action('a3', { arguments: [{ name: 'q', type: 'Quote' }] })),
      400,
      refused('validation-failed', 'invalid action "a3": argument "q": "Quote" is an object type, which cannot be an input'),
    );
    expectResponse(
      await run(
        'create_action',
        action('a4', {
          arguments: [
            { name: 'x', type: 'Int' },
            { name: 'x', type: 'Int' },
          ],
        }),
      ),
      400,
      refused('validation-failed', 'invalid action "a4": the argument "x" is defined more than once'),
    );
    expectResponse(
      await run('create_action', action('a5', { kind: 'asynchronous', type: 'query' })),
      400,
      refused('parse-failed', 'an asynchronous action must be a mutation', '$.args.definition.kind'),
    );
    // A mutation of a table.
    expectResponse(
      await run('create_action', action('insert_music_artist', {})),
      400,
      refused(
        'remote-schema-conflicts',
        'the GraphQL name "insert_music_artist" of the actions and custom types conflicts with the schema of the tracked tables and functions',
      ),
    );
    expectResponse(await run('update_action', action('nope', {})), 400, refused('not-exists', 'action with name "nope" does not exist'));
    expectResponse(await run('drop_action', { name: 'nope' }), 400, refused('not-exists', 'action with name "nope" does not exist'));
    expect(await exported()).toEqual(before);

    expectResponse(
      await run('update_action', { name: 'quote', definition: { handler: `${handlers.url}/quote2`, output_type: 'Quote', type: 'mutation' } }),
      200,
      ok,
    );
    expect((await exported()).actions).toEqual([
      {
        name: 'quote',
        definition: {
          kind: 'synchronous',
          type: 'mutation',
          output_type: 'Quote',
          handler: `${handlers.url}/quote2`,
          forward_client_headers: false,
          timeout: 30,
        },
        permissions: [{ role: 'shopper' }],
      },
    ]);
    expectResponse(await target.graphql('mutation { quote { id } }', undefined, { headers: asRole('shopper') }), 200, { data: { quote: { id: 'q2' } } });
    expectResponse(await run('drop_action', { name: 'quote' }), 200, ok);
    expect((await exported()).actions).toBeUndefined();
    expect((await target.graphql('mutation { quote { id } }')).body).toHaveProperty('errors');
  },
);

test(
  covers(
    ['op.create_action', 'dec.actions.async-results'],
    'an asynchronous action answers an id at once; its result is read by id later, only by whoever asked',
  ),
  async () => {
    handlers.use(
      http.post('/slow_quote', async ({ request }) => {
        const body = (await request.json()) as { input: { price: { amount: number } } };
        return body.input.price.amount > 0
          ? HttpResponse.json({ id: 'done', total: body.input.price.amount * 2, currency: 'EUR' })
          : HttpResponse.json({ message: 'no' }, { status: 422 });
      }),
    );
    expectResponse(await run('create_action', action('slow_quote', { kind: 'asynchronous', arguments: quoteArgs })), 200, ok);
    expectResponse(await run('create_action_permission', { action: 'slow_quote', role: 'shopper' }), 200, ok);
    const me = asRole('shopper', { 'x-engine-user-id': '1' });
    const started = await target.graphql('mutation { slow_quote(price: {amount: 21, currency: EUR}) }', undefined, { headers: me });
    expect(started.status).toBe(200);
    const id = (started.body as { data: { slow_quote: string } }).data.slow_quote;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const read = (headers: Record<string, string>) =>
      target.graphql('query R($id: uuid!) { slow_quote(id: $id) { id errors output { id total } } }', { id }, { headers });
    const done = await until(
      () => read(me),
      (r) => (r.body as { data?: { slow_quote?: { output?: unknown } } }).data?.slow_quote?.output != null,
      15_000,
    );
    expectResponse(done, 200, { data: { slow_quote: { id, errors: null, output: { id: 'done', total: 42 } } } });
    // Another user of the role, and one of the role without a user id, do not see it; admin does.
    expectResponse(await read(asRole('shopper', { 'x-engine-user-id': '2' })), 200, { data: { slow_quote: null } });
    expectResponse(await read(asRole('shopper')), 200, { data: { slow_quote: null } });
    expectResponse(await read(target.adminHeaders()), 200, { data: { slow_quote: { id, errors: null, output: { id: 'done', total: 42 } } } });
    // A result asked for without a user id belongs to the role: any of its users reads it.
    const anonymous = (await target.graphql('mutation { slow_quote(price: {amount: 5, currency: EUR}) }', undefined, { headers: asRole('shopper') })).body as {
      data: { slow_quote: string };
    };
    const readAnonymous = (headers: Record<string, string>) =>
      target.graphql('query R($id: uuid!) { slow_quote(id: $id) { output { total } } }', { id: anonymous.data.slow_quote }, { headers });
    expectResponse(
      await until(
        () => readAnonymous(me),
        (r) => (r.body as { data?: { slow_quote?: { output?: unknown } } }).data?.slow_quote?.output != null,
        15_000,
      ),
      200,
      { data: { slow_quote: { output: { total: 10 } } } },
    );
    // A handler's refusal is the result's errors.
    const failed = (await target.graphql('mutation { slow_quote(price: {amount: 0, currency: EUR}) }', undefined, { headers: me })).body as {
      data: { slow_quote: string };
    };
    const errors = await until(
      () => target.graphql('query R($id: uuid!) { slow_quote(id: $id) { errors output { id } } }', { id: failed.data.slow_quote }, { headers: me }),
      (r) => (r.body as { data?: { slow_quote?: { errors?: unknown } } }).data?.slow_quote?.errors != null,
      15_000,
    );
    expectResponse(errors, 200, { data: { slow_quote: { errors: { message: 'no', extensions: { path: '$', code: 'unexpected' } }, output: null } } });
  },
);

test(
  covers(
    ['op.create_action', 'dec.actions.forms'],
    'handler headers: configured (value or from the environment), client headers only when forwarded; the handler URL may take the environment',
  ),
  async () => {
    handlers.use(http.post('/quote', () => HttpResponse.json({ id: 'h', currency: 'EUR' })));
    const home = process.env.HOME ?? '';
    expectResponse(
      await run(
        'create_action',
        action('quote', {
          headers: [
            { name: 'X-Key', value: 'k' },
            { name: 'X-Home', value_from_env: 'HOME' },
          ],
        }),
      ),
      200,
      ok,
    );
    await target.graphql('mutation { quote { id } }', undefined, { headers: { ...target.adminHeaders(), 'x-client': 'c' } });
    const first = handlers.requestsTo('/quote').at(-1)!.headers;
    expect([first['x-key'], first['x-client']]).toEqual(['k', undefined]);
    expect(first['x-home']).toBe(home);
    expectResponse(await run('update_action', action('quote', { forward_client_headers: true, headers: [{ name: 'X-Key', value: 'k' }] })), 200, ok);
    await target.graphql('mutation { quote { id } }', undefined, { headers: { ...target.adminHeaders(), 'x-client': 'c', 'x-key': 'from-client' } });
    const second = handlers.requestsTo('/quote').at(-1)!.headers;
    expect([second['x-key'], second['x-client'], second[branded('x-engine-admin-secret')]]).toEqual(['k', 'c', undefined]);
    expectResponse(await run('update_action', action('quote', { handler: '{{ENGINE_TEST_NO_SUCH_VARIABLE}}/quote' })), 200, ok);
    expectResponse(await target.graphql('mutation { quote { id } }'), 200, {
      errors: [
        {
          message: 'the handler of action "quote" did not answer: the environment variable ENGINE_TEST_NO_SUCH_VARIABLE is not set',
          extensions: { path: '$', code: 'unexpected' },
        },
      ],
    });
  },
);

test(
  covers(
    ['op.replace_metadata.v1', 'op.export_metadata.v1', 'op.set_custom_types', 'op.create_action'],
    'custom types and actions round-trip through replace_metadata',
  ),
  async () => {
    expectResponse(
      await run('create_action', {
        ...action('quote', { arguments: quoteArgs, kind: 'asynchronous', headers: [{ name: 'X-Key', value: 'k' }], timeout: 9 }),
        comment: 'c',
        permissions: undefined,
      }),
      200,
      ok,
    );
    expectResponse(await run('create_action_permission', { action: 'quote', role: 'shopper' }), 200, ok);
    const doc = await exported();
    expectResponse(await run('clear_metadata', {}), 200, ok);
    expect((await exported()).actions).toBeUndefined();
    expectResponse(await run('replace_metadata', doc), 200, ok);
    expect(await exported()).toEqual(doc);
    // An action whose types are missing from the document is refused, changing nothing.
    const broken = { ...doc, custom_types: { ...TYPES, input_objects: [] } };
    const r = await run('replace_metadata', broken);
    expect(r.status).toBe(400);
    expect(await exported()).toEqual(doc);
  },
);

test(
  covers(
    ['op.set_custom_types', 'op.create_action', 'dec.actions.relationships'],
    "relationships from an action's output reach tracked tables, under the role's select permission",
  ),
  async () => {
    handlers.use(
      http.post('/pick', () =>
        HttpResponse.json([
          { id: 'p1', artist_id: 1 },
          { id: 'p2', artist_id: 3 },
          { id: 'p3', artist_id: null },
        ]),
      ),
    );
    const types = {
      ...TYPES,
      objects: [
        ...TYPES.objects,
        {
          name: 'Pick',
          fields: [
            { name: 'id', type: 'ID!' },
            { name: 'artist_id', type: 'Int' },
          ],
          relationships: [
            { name: 'artist', type: 'object', remote_table: { schema: 'music', name: 'artist' }, field_mapping: { artist_id: 'id' } },
            { name: 'same_artist', type: 'array', remote_table: { schema: 'music', name: 'artist' }, field_mapping: { artist_id: 'id' } },
          ],
        },
      ],
    };
    expectResponse(await run('set_custom_types', types), 200, ok);
    expectResponse(await run('create_action', action('pick', { type: 'query', output_type: '[Pick!]!' })), 200, ok);
    const q = '{ pick { id artist { name c: country } same_artist { id } } }';
    expectResponse(await target.graphql(q), 200, {
      data: {
        pick: [
          { id: 'p1', artist: { name: 'Aurora Lane', c: 'NO' }, same_artist: [{ id: 1 }] },
          { id: 'p2', artist: { name: 'Cellar Door', c: null }, same_artist: [{ id: 3 }] },
          { id: 'p3', artist: null, same_artist: [] },
        ],
      },
    });
    // A role reads only the rows and columns its select permission allows; without one the relationship is not there.
    expectResponse(await run('create_action_permission', { action: 'pick', role: 'fan' }), 200, ok);
    const fan = asRole('fan');
    expectResponse(await target.graphql('{ pick { id artist { name } } }', undefined, { headers: fan }), 200, {
      errors: [{ message: 'Cannot query field "artist" on type "Pick". Did you mean "artist_id"?', extensions: { path: '$', code: 'validation-failed' } }],
    });
    expectResponse(
      await run('create_select_permission', {
        table: { schema: 'music', name: 'artist' },
        role: 'fan',
        permission: { columns: ['id', 'name'], filter: { id: { _eq: 1 } } },
      }),
      200,
      ok,
    );
    expectResponse(await target.graphql('{ pick { id artist { name } same_artist { id } } }', undefined, { headers: fan }), 200, {
      data: {
        pick: [
          { id: 'p1', artist: { name: 'Aurora Lane' }, same_artist: [{ id: 1 }] },
          { id: 'p2', artist: null, same_artist: [] },
          { id: 'p3', artist: null, same_artist: [] },
        ],
      },
    });
    expect((await target.graphql('{ pick { artist { country } } }', undefined, { headers: fan })).body).toEqual({
      errors: [{ message: 'Cannot query field "country" on type "music_artist".', extensions: { path: '$', code: 'validation-failed' } }],
    });
  },
);

test(
  covers(
    [
      'op.create_action',
      'op.update_action',
      'op.drop_action',
      'op.create_action_permission',
      'op.drop_action_permission',
      'err.validation-failed.action',
      'err.dependency-error.drop',
    ],
    'each operation touches its own action and role only',
  ),
  async () => {
    expectResponse(await run('create_action', { ...action('quote', { arguments: quoteArgs }), comment: null }), 200, ok);
    expectResponse(await run('create_action', { ...action('second', {}), comment: 'two' }), 200, ok);
    for (const role of ['shopper', 'clerk']) expectResponse(await run('create_action_permission', { action: 'quote', role }), 200, ok);
    expectResponse(await run('create_action_permission', { action: 'second', role: 'clerk' }), 200, ok);
    const list = async () =>
      (await exported()).actions as { name: string; comment?: string; permissions?: { role: string }[]; definition: { handler: string } }[];
    expect((await list()).map((a) => [a.name, a.comment, a.permissions])).toEqual([
      ['quote', undefined, [{ role: 'shopper' }, { role: 'clerk' }]],
      ['second', 'two', [{ role: 'clerk' }]],
    ]);
    // A role without a permission does not see the action, whoever else may.
    expect((await target.graphql('mutation { second { id } }', undefined, { headers: asRole('shopper') })).body).toEqual({
      errors: [{ message: 'Cannot query field "second" on type "mutation_root".', extensions: { path: '$', code: 'validation-failed' } }],
    });
    expectResponse(await run('drop_action_permission', { action: 'quote', role: 'shopper' }), 200, ok);
    expectResponse(
      await run('drop_action_permission', { action: 'nope', role: 'clerk' }),
      400,
      refused('not-exists', 'action with name "nope" does not exist'),
    );
    expect((await list()).map((a) => [a.name, a.permissions])).toEqual([
      ['quote', [{ role: 'clerk' }]],
      ['second', [{ role: 'clerk' }]],
    ]);
    // update_action: the comment stays unless given; null removes it; the other action is untouched.
    expectResponse(await run('update_action', { name: 'second', definition: { handler: `${handlers.url}/other`, output_type: 'Quote' } }), 200, ok);
    expect((await list()).map((a) => [a.name, a.comment, a.definition.handler])).toEqual([
      ['quote', undefined, `${handlers.url}/quote`],
      ['second', 'two', `${handlers.url}/other`],
    ]);
    expectResponse(
      await run('update_action', { name: 'second', definition: { handler: `${handlers.url}/other`, output_type: 'Quote' }, comment: 'new' }),
      200,
      ok,
    );
    expect((await list())[1]!.comment).toBe('new');
    expectResponse(
      await run('update_action', { name: 'second', definition: { handler: `${handlers.url}/other`, output_type: 'Quote' }, comment: null }),
      200,
      ok,
    );
    expect((await list())[1]!.comment).toBeUndefined();
    // Bad names.
    expectResponse(
      await run('create_action', action('two words', {})),
      400,
      refused('validation-failed', 'invalid action "two words": the name is not a valid GraphQL name'),
    );
    expectResponse(
      await run('create_action', action('a6', { arguments: [{ name: 'bad arg', type: 'Int' }] })),
      400,
      refused('validation-failed', 'invalid action "a6": the argument name "bad arg" is not a valid GraphQL name'),
    );
    // Types still in use, named by the first one missing.
    expectResponse(
      await run('set_custom_types', { ...TYPES, objects: [] }),
      400,
      refused('dependency-error', 'cannot drop due to the following dependent objects : action "quote" (uses "Quote"), action "second" (uses "Quote")'),
    );
    // Dropping a role from one action leaves it on the other.
    expectResponse(await run('drop_action_permission', { action: 'quote', role: 'clerk' }), 200, ok);
    expect((await list()).map((a) => [a.name, a.permissions])).toEqual([
      ['quote', undefined],
      ['second', [{ role: 'clerk' }]],
    ]);
    // drop_action drops that action only.
    expectResponse(await run('drop_action', { name: 'quote' }), 200, ok);
    expect((await list()).map((a) => a.name)).toEqual(['second']);
  },
);
