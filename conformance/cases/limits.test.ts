// What one request may ask of the engine (decisions dec.limits.*): how deep its JSON nests, how
// large, deep and wide a GraphQL operation of a role may be, and how long its SQL may run. A
// request beyond a limit gets a clear error and changes nothing; it never takes the server down.
import { getIntrospectionQuery } from 'graphql';
import { caseWithProfile, covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql, musicMetadata, musicTable } from '../harness/fixtures';
import { useTarget, type Target } from '../harness/target';
import { scaled, until } from '../harness/wait';
import { openSocket } from '../harness/websocket';

const target = useTarget({ profiles: ['tight-limits'] });
const deepJson = (levels: number, leaf: unknown, wrap: (inner: unknown) => unknown) => {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = wrap(value);
  return value;
};
/** JSON text nested `levels` deep: built as text, since JSON.stringify itself fails on such values. */
const deepText = (levels: number, leaf: string, open: string, close: string) => open.repeat(levels) + leaf + close.repeat(levels);
const tooDeep = (limit: number) => ({ path: '$', error: `the request nests deeper than ${limit} levels`, code: 'parse-failed' });
const gqlError = (message: string, code = 'validation-failed') => ({ errors: [{ message, extensions: { path: '$', code } }] });
const asUser = (t: Target = target): Record<string, string> => ({ ...t.adminHeaders(), 'x-engine-role': 'user' });

beforeAll(async () => {
  await target.sql(fixtureSql('music'));
  // The statistics of a database in use: the planner's estimates (dec.limits.query-cost) know the tables are small.
  await target.sql('analyze music.artist; analyze music.album');
  await target.sql('create or replace view music.slow as select 1 as id, pg_sleep(0.8)::text as slept');
});
beforeEach(async () => {
  const r = await target.metadata(musicMetadata(['artist', 'album'], ['album.artist', 'artist.albums']));
  if (r.status !== 200) throw new Error(r.text);
  for (const [table, role] of [
    ['artist', 'user'],
    ['album', 'user'],
  ] as const) {
    await target.metadata({ type: 'create_select_permission', args: { table: musicTable(table), role, permission: { columns: '*', filter: {} } } });
  }
});
const exported = async (t: Target = target) => (await t.metadata({ type: 'export_metadata', args: {} })).body;

test(
  covers(['dec.limits.json-depth', 'err.parse-failed.too-deep'], 'metadata bodies nested thousands of levels deep are refused with 400, nothing changed'),
  async () => {
    const before = await exported();
    const permission = (filter: string) =>
      `{"type": "create_select_permission", "args": {"table": {"schema": "music", "name": "artist"}, "role": "deep", "permission": {"columns": "*", "filter": ${filter}}}}`;
    const bodies: [string, string][] = [
      ['/v1/metadata', permission(deepText(2500, '{"id": {"_eq": 1}}', '{"_not": ', '}'))],
      ['/v1/metadata', permission(deepText(3000, '{"id": {"_eq": 1}}', '{"_and": [', ']}'))],
      ['/v1/metadata', deepText(10_000, '{"type": "export_metadata", "args": {}}', '{"type": "bulk", "args": [', ']}')],
      [
        '/v1/query',
        `{"type": "select", "args": {"table": {"schema": "music", "name": "artist"}, "columns": ["id"], "where": ${deepText(10_000, '{"id": 1}', '{"$not": ', '}')}}}`,
      ],
    ];
    for (const [endpoint, body] of bodies) {
      expectResponse(await target.request('POST', endpoint, { body, raw: true, headers: target.adminHeaders() }), 400, tooDeep(128));
    }
    expect(await exported()).toEqual(before);
  },
);

test(covers(['dec.limits.json-depth'], 'a filter nested 100 levels deep is fine'), async () => {
  const filter = deepJson(100, { id: { _eq: 1 } }, (x) => ({ _not: x }));
  expectResponse(
    await target.metadata({ type: 'create_select_permission', args: { table: musicTable('artist'), role: 'deep', permission: { columns: ['id'], filter } } }),
    200,
    { message: 'success' },
  );
  const r = await target.graphql('{ music_artist { id } }', undefined, { headers: { ...target.adminHeaders(), 'x-engine-role': 'deep' } });
  expectResponse(r, 200, { data: { music_artist: [{ id: 1 }] } });
});

test(covers(['dec.limits.json-depth'], 'GraphQL variables nested 10,000 deep are refused, even unused'), async () => {
  const send = (query: string, variables: string) =>
    target.request('POST', '/v1/graphql', {
      body: `{"query": ${JSON.stringify(query)}, "variables": ${variables}}`,
      raw: true,
      headers: target.adminHeaders(),
    });
  const r = await send('{ music_artist(where: {id: {_eq: 1}}) { id } }', `{"unused": ${deepText(10_000, '1', '[', ']')}}`);
  expectResponse(r, 200, gqlError('the request nests deeper than 128 levels'));
  const used = await send(
    'query ($w: music_artist_bool_exp) { music_artist(where: $w) { id } }',
    `{"w": ${deepText(5000, '{"id": {"_eq": 1}}', '{"_not": ', '}')}}`,
  );
  expectResponse(used, 200, gqlError('the request nests deeper than 128 levels'));
  const fine = await send(
    'query ($w: music_artist_bool_exp) { music_artist(where: $w) { id } }',
    `{"w": ${deepText(100, '{"id": {"_eq": 1}}', '{"_not": ', '}')}}`,
  );
  expectResponse(fine, 200, { data: { music_artist: [{ id: 1 }] } });
});

test(
  covers(['dec.limits.graphql-operation', 'err.graphql.document-too-deep'], 'a query nested thousands of levels deep is refused, for admin too'),
  async () => {
    const selection = `{ music_artist ${'{ albums '.repeat(5000)}{ id }${' }'.repeat(5000)} }`;
    expectResponse(await target.graphql(selection), 200, gqlError('the query nests deeper than 128 levels'));
    const where = `{ music_artist(where: ${'{_not: '.repeat(5000)}{id: {_eq: 1}}${'}'.repeat(5000)}) { id } }`;
    expectResponse(await target.graphql(where), 200, gqlError('the query nests deeper than 128 levels'));
    expectResponse(await target.graphql(`{ music_artist(where: {name: {_eq: "${'{'.repeat(5000)}"}}) { id } }`), 200, { data: { music_artist: [] } });
    // Flat text, deep recursion: a chain of fragments, each spreading the next.
    const chain = Array.from({ length: 5000 }, (_, i) => `fragment F${i} on query_root { ${i < 4999 ? `...F${i + 1}` : '__typename'} }`).join('\n');
    expectResponse(await target.graphql(`query { ...F0 }\n${chain}`), 200, gqlError('the query nests deeper than 128 levels'));
    // A block string's escaped quotes do not end it: the nesting after it is measured all the same.
    const blockString = '"""x\\"""y"""';
    const escaped = `{ a: music_artist(where: {name: {_eq: ${blockString}}}) { id } b: music_artist(where: ${'{_not: '.repeat(2000)}{id: {_eq: 1}}${'}'.repeat(2000)}) { id } }`;
    for (const headers of [target.adminHeaders(), asUser()])
      expectResponse(await target.graphql(escaped, undefined, { headers }), 200, gqlError('the query nests deeper than 128 levels'));
    expectResponse(await target.graphql(`{ music_artist(where: {name: {_eq: ${blockString}}}) { id } }`), 200, { data: { music_artist: [] } });
  },
);

test(
  covers(['dec.limits.graphql-operation', 'err.graphql.operation-too-wide'], 'a fragment bomb is refused for admin too, before anything expands it'),
  async () => {
    // Each fragment spreads the next twice: 30 fragments are 2^29 fields.
    const bomb = Array.from({ length: 30 }, (_, i) => `fragment F${i} on query_root { ${i < 29 ? `...F${i + 1} ...F${i + 1}` : '__typename'} }`).join('\n');
    for (const [headers, limit] of [
      [target.adminHeaders(), 20000],
      [asUser(), 2000],
    ] as const) {
      expectResponse(
        await target.graphql(`query { ...F0 }\n${bomb}`, undefined, { headers }),
        200,
        gqlError(`the query selects 536870912 fields; at most ${limit} are allowed`),
      );
    }
    expectResponse(await target.graphql('{ __typename }'), 200, { data: { __typename: 'query_root' } });
  },
);

test(
  covers(
    ['dec.limits.graphql-operation', 'err.graphql.operation-too-deep'],
    'by default a role may ask for the standard introspection and 25 levels, admin for more',
  ),
  async () => {
    const intro = await target.graphql(getIntrospectionQuery(), undefined, { headers: asUser() });
    expect((intro.body as { data?: { __schema?: unknown } }).data?.__schema).toBeDefined();
    // music_artist, then n pairs of albums and artist, then the tail: 2n + 1 + the tail's levels.
    const levels = (n: number, tail: string) => `{ music_artist { ${'albums { artist { '.repeat(n)}${tail}${' } }'.repeat(n)} } }`;
    expectResponse(
      await target.graphql(levels(11, 'albums { id }'), undefined, { headers: asUser() }),
      200,
      expect.objectContaining({ data: expect.anything() }),
    );
    expectResponse(
      await target.graphql(levels(12, 'id'), undefined, { headers: asUser() }),
      200,
      gqlError('the query selects 26 levels deep; at most 25 are allowed'),
    );
    expectResponse(await target.graphql(levels(12, 'id')), 200, expect.objectContaining({ data: expect.anything() }));
  },
);

caseWithProfile(
  'tight-limits',
  ['dec.limits.graphql-operation', 'err.graphql.operation-too-deep', 'err.graphql.operation-too-wide'],
  "depth and field count of a role's operation are limited, fragments counted where they are spread",
  async () => {
    const t = target.profileTarget('tight-limits')!;
    await t.metadata(musicMetadata(['artist', 'album'], ['album.artist', 'artist.albums']));
    for (const table of ['artist', 'album'])
      await t.metadata({ type: 'create_select_permission', args: { table: musicTable(table), role: 'user', permission: { columns: '*', filter: {} } } });
    const ask = (query: string, headers = asUser(t)) => t.graphql(query, undefined, { headers });
    expectResponse(await ask('{ music_artist { albums { artist { id } } } }'), 200, expect.objectContaining({ data: expect.anything() }));
    expectResponse(
      await ask('{ music_artist { albums { artist { albums { id } } } } }'),
      200,
      gqlError('the query selects 5 levels deep; at most 4 are allowed'),
    );
    expectResponse(
      await ask('query { ...A } fragment A on query_root { music_artist { ...B } } fragment B on music_artist { albums { artist { albums { id } } } }'),
      200,
      gqlError('the query selects 5 levels deep; at most 4 are allowed'),
    );
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    expectResponse(await ask(aliases(20)), 200, expect.objectContaining({ data: expect.anything() }));
    expectResponse(await ask(aliases(21)), 200, gqlError('the query selects 21 fields; at most 20 are allowed'));
    // Each spread counts its fragment again: 4 spreads of 3 fields, 4 of them 3 deep, are 4 + 4 × (1 + 4 × 3) fields.
    const bomb =
      'query { ...Q ...Q ...Q ...Q } fragment Q on query_root { music_artist { ...R ...R ...R ...R } } fragment R on music_artist { id name country }';
    expectResponse(await ask(bomb), 200, gqlError('the query selects 52 fields; at most 20 are allowed'));
    // Admin has limits of its own, larger ones.
    expectResponse(await ask(aliases(21), t.adminHeaders()), 200, expect.objectContaining({ data: expect.anything() }));
    expectResponse(await ask(aliases(40), t.adminHeaders()), 200, expect.objectContaining({ data: expect.anything() }));
    expectResponse(await ask(aliases(41), t.adminHeaders()), 200, gqlError('the query selects 41 fields; at most 40 are allowed'));
    const adminLevels = (n: number) => `{ music_artist { ${'albums { artist { '.repeat(n)}id${' } }'.repeat(n)} } }`;
    expectResponse(await ask(adminLevels(3), t.adminHeaders()), 200, expect.objectContaining({ data: expect.anything() }));
    expectResponse(await ask(adminLevels(4), t.adminHeaders()), 200, gqlError('the query selects 10 levels deep; at most 8 are allowed'));
  },
);

caseWithProfile(
  'tight-limits',
  ['dec.limits.graphql-operation', 'err.parse-failed.bulk-size'],
  'a bulk holds at most the configured number of operations, nested bulks counted; a longer one runs nothing',
  async () => {
    const t = target.profileTarget('tight-limits')!;
    await t.sql('drop table if exists music.bulk_probe; create table music.bulk_probe (id int)');
    const insert = (id: number) => ({ type: 'run_sql', args: { sql: `insert into music.bulk_probe values (${id})` } });
    const rows = async () => (await t.sql('select count(*)::int as n from music.bulk_probe'))[0]!.n;
    const ten = Array.from({ length: 10 }, (_, i) => insert(i));
    expectResponse(await t.metadata({ type: 'bulk', args: ten }, { endpoint: '/v1/query' }), 200, expect.any(Array));
    expect(await rows()).toBe(10);
    const refused = (count: number) => ({ path: '$.args', error: `a bulk holds at most 10 operations; this one holds ${count}`, code: 'parse-failed' });
    expectResponse(await t.metadata({ type: 'bulk', args: [...ten, insert(10)] }, { endpoint: '/v1/query' }), 400, refused(11));
    expectResponse(await t.metadata({ type: 'bulk', args: [insert(11), { type: 'bulk', args: ten }] }, { endpoint: '/v1/query' }), 400, refused(11));
    expect(await rows()).toBe(10);
  },
);

caseWithProfile(
  'tight-limits',
  ['dec.limits.graphql-operation', 'dec.limits.json-depth', 'err.graphql.document-too-large'],
  'document size and nesting limits hold for every role',
  async () => {
    const t = target.profileTarget('tight-limits')!;
    const big = `{ __typename ${' '.repeat(2100)}}`;
    expectResponse(await t.graphql(big), 200, gqlError('the query is larger than 2048 bytes'));
    expectResponse(await t.graphql('{ __typename }', { v: deepJson(40, 1, (x) => [x]) }), 200, gqlError('the request nests deeper than 32 levels'));
    expectResponse(await t.metadata({ type: 'bulk', args: [deepJson(40, {}, (x) => ({ a: x }))] }), 400, tooDeep(32));
  },
);

caseWithProfile(
  'tight-limits',
  ['dec.limits.statement-timeout', 'err.graphql.statement-timeout'],
  "a role's statement is cancelled after the statement timeout, admin's GraphQL after its own",
  async () => {
    const t = target.profileTarget('tight-limits')!;
    await t.metadata({
      type: 'bulk',
      args: [
        { type: 'track_table', args: { table: musicTable('slow') } },
        { type: 'create_select_permission', args: { table: musicTable('slow'), role: 'user', permission: { columns: '*', filter: {} } } },
      ],
    });
    const started = Date.now();
    expectResponse(
      await t.graphql('{ music_slow { id } }', undefined, { headers: asUser(t) }),
      200,
      gqlError('the query ran longer than 300 ms and was cancelled', 'timeout'),
    );
    // Soon after the 300 ms, not after the view's whole sleep (a loaded machine stretches "soon": wait.ts).
    expect(Date.now() - started).toBeLessThan(scaled(750));
    expectResponse(await t.graphql('{ music_slow { id } }'), 200, { data: { music_slow: [{ id: 1 }] } });
    expectResponse(await t.graphql('{ music_artist_by_pk(id: 1) { id } }', undefined, { headers: asUser(t) }), 200, {
      data: { music_artist_by_pk: { id: 1 } },
    });
    // Admin's GraphQL has a timeout too (1000 ms here); its metadata operations and run_sql do not.
    await t.sql('create or replace view music.slower as select 1 as id, pg_sleep(1.3)::text as slept');
    expectResponse(await t.metadata({ type: 'track_table', args: { table: musicTable('slower') } }), 200);
    expectResponse(await t.graphql('{ music_slower { id } }'), 200, gqlError('the query ran longer than 1000 ms and was cancelled', 'timeout'));
    expectResponse(await t.metadata({ type: 'run_sql', args: { sql: 'select count(*) as n from music.slower' } }, { endpoint: '/v2/query' }), 200, {
      result_type: 'TuplesOk',
      result: [['n'], ['1']],
    });
  },
);

/** Active statements on the target's database that read music.slow_gone. */
const sleeping = async () =>
  (
    await target.sql(
      "select count(*)::int as n from pg_stat_activity where state = 'active' and query like '%slow_gone%' and query not like '%pg_stat_activity%'",
    )
  )[0]!.n as number;

test(
  covers(['dec.limits.role-share'], "one role's slow queries never make another role wait: its further requests wait their turn"),
  async () => {
    await target.sql('create or replace view music.slow_share as select 1 as id, pg_sleep(0.8)::text as slept');
    for (const [role, table] of [
      ['user', 'slow_share'],
      ['other', 'artist'],
    ] as const) {
      await target.metadata({ type: 'track_table', args: { table: musicTable(table) } });
      await target.metadata({ type: 'create_select_permission', args: { table: musicTable(table), role, permission: { columns: ['id'], filter: {} } } });
    }
    const finished: string[] = [];
    // Twelve slow queries of one role: more than all the connections of the pool.
    const slow = Array.from({ length: 12 }, () =>
      target.graphql('{ music_slow_share { id } }', undefined, { headers: asUser() }).then((r) => {
        finished.push('slow');
        return r;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const quick = await target.graphql('{ music_artist_by_pk(id: 1) { id } }', undefined, { headers: { ...target.adminHeaders(), 'x-engine-role': 'other' } });
    finished.push('quick');
    expectResponse(quick, 200, { data: { music_artist_by_pk: { id: 1 } } });
    // The other role was answered before any of the slow queries.
    expect(finished[0]).toBe('quick');
    for (const r of await Promise.all(slow)) expectResponse(r, 200, { data: { music_slow_share: [{ id: 1 }] } });
  },
  60_000,
);

test(
  covers(['dec.limits.statement-timeout'], 'a client that goes away has its statement cancelled, for a role and for admin'),
  async () => {
    await target.sql('create or replace view music.slow_gone as select 1 as id, pg_sleep(20)::text as slept');
    await target.metadata({ type: 'track_table', args: { table: musicTable('slow_gone') } });
    await target.metadata({
      type: 'create_select_permission',
      args: { table: musicTable('slow_gone'), role: 'user', permission: { columns: ['id'], filter: {} } },
    });
    for (const headers of [asUser(), target.adminHeaders()]) {
      const controller = new AbortController();
      const request = fetch(`${target.url}/v1/graphql`, {
        method: 'POST',
        body: JSON.stringify({ query: '{ music_slow_gone { id } }' }),
        headers: { 'content-type': 'application/json', ...headers },
        signal: controller.signal,
      }).catch(() => 'aborted');
      // The statement sleeps 20 s: seen running within 10 s (a loaded machine), then gone long before its end.
      expect(await until(sleeping, (n) => n === 1, 10_000, 20)).toBe(1);
      controller.abort();
      expect(await request).toBe('aborted');
      expect(await until(sleeping, (n) => n === 0, 10_000, 20)).toBe(0);
    }
  },
  30_000,
);

caseWithProfile(
  'tight-limits',
  ['dec.limits.query-cost', 'err.graphql.query-too-costly', 'dec.graphql.subscriptions'],
  "a role's operation that PostgreSQL expects to cost more than the limit is refused before it runs, every time it is sent or subscribed to; one with limits, and admin's, are not",
  async () => {
    const t = target.profileTarget('tight-limits')!;
    // 200 parents of 100 children each, with the statistics a database in use has.
    await t.sql(`drop schema if exists cost cascade; create schema cost;
      create table cost.parent (id int primary key, name text);
      create table cost.child (id int primary key, parent_id int references cost.parent, name text);
      insert into cost.parent select g, 'p' || g from generate_series(1, 200) g;
      insert into cost.child select g, 1 + g % 200, 'c' || g from generate_series(1, 20000) g;
      create index on cost.child (parent_id); analyze cost.parent; analyze cost.child;`);
    const table = (name: string) => ({ schema: 'cost', name });
    const setUp = await t.metadata(
      {
        type: 'bulk',
        args: [
          { type: 'track_table', args: { table: table('parent') } },
          { type: 'track_table', args: { table: table('child') } },
          {
            type: 'create_array_relationship',
            args: { table: table('parent'), name: 'children', using: { foreign_key_constraint_on: { table: table('child'), column: 'parent_id' } } },
          },
          { type: 'create_select_permission', args: { table: table('parent'), role: 'user', permission: { columns: '*', filter: {} } } },
          { type: 'create_select_permission', args: { table: table('child'), role: 'user', permission: { columns: '*', filter: {} } } },
        ],
      },
      { endpoint: '/v1/query' },
    );
    expect(setUp.status).toBe(200);
    const fanOut = '{ cost_parent { children { id } } }';
    const refused = await t.graphql(fanOut, undefined, { headers: asUser(t) });
    expect(refused.body).toEqual({
      errors: [
        {
          message: expect.stringMatching(/^the query is estimated to cost \d{5,}; at most 10000 is allowed$/),
          extensions: { path: '$', code: 'validation-failed' },
        },
      ],
    });
    expectResponse(await t.graphql('{ cost_parent(limit: 1) { children(limit: 2, order_by: {id: asc}) { id } } }', undefined, { headers: asUser(t) }), 200, {
      data: { cost_parent: [{ children: [{ id: 200 }, { id: 400 }] }] },
    });
    expectResponse(await t.graphql('{ cost_parent_by_pk(id: 7) { name } }', undefined, { headers: asUser(t) }), 200, {
      data: { cost_parent_by_pk: { name: 'p7' } },
    });
    const asAdmin = await t.graphql(fanOut);
    expect((asAdmin.body as { data: { cost_parent: unknown[] } }).data.cost_parent).toHaveLength(200);
    // Each time it is sent, also once the server keeps its plan and admin has run it: refused the same.
    for (const query of [fanOut, fanOut, 'query Again { cost_parent { children { id } } }'])
      expect((await t.graphql(query, undefined, { headers: asUser(t) })).body).toEqual(refused.body);
    expectResponse(await t.graphql('{ cost_parent_by_pk(id: 7) { name } }', undefined, { headers: asUser(t) }), 200, {
      data: { cost_parent_by_pk: { name: 'p7' } },
    });
    // A subscription to it as well, each time it is started.
    const socket = openSocket(t, asUser(t));
    try {
      for (let i = 0; i < 2; i++) {
        const live = socket.start('subscription { cost_parent { children { id } } }');
        expect(await live.take()).toEqual({ type: 'next', payload: refused.body });
        expect(await live.take()).toEqual({ type: 'complete' });
      }
      const cheap = socket.start('subscription { cost_parent_by_pk(id: 7) { name } }');
      expect(await cheap.take()).toEqual({ type: 'next', payload: { data: { cost_parent_by_pk: { name: 'p7' } } } });
      cheap.stop();
    } finally {
      await socket.close();
    }
  },
);

caseWithProfile(
  'tight-limits',
  ['dec.limits.query-cost'],
  "small tables the database has never analyzed are estimated by their rows: a role's nested query over them is not refused",
  async () => {
    const t = target.profileTarget('tight-limits')!;
    // Never analyzed: the planner would assume ten pages of rows in each table, thousands at every level.
    await t.sql(`drop schema if exists cost_fresh cascade; create schema cost_fresh;
      create table cost_fresh.a (id int primary key);
      create table cost_fresh.b (id int primary key, a_id int references cost_fresh.a);
      create table cost_fresh.c (id int primary key, b_id int references cost_fresh.b);
      insert into cost_fresh.a values (1), (2);
      insert into cost_fresh.b values (10, 1), (20, 2);
      insert into cost_fresh.c values (100, 10), (200, 20), (201, 20);`);
    const table = (name: string) => ({ schema: 'cost_fresh', name });
    const children = (from: string, to: string, column: string) => ({
      type: 'create_array_relationship',
      args: { table: table(from), name: `${to}s`, using: { foreign_key_constraint_on: { table: table(to), column } } },
    });
    const setUp = await t.metadata({
      type: 'bulk',
      args: [
        ...['a', 'b', 'c'].flatMap((name) => [
          { type: 'pg_track_table', args: { table: table(name) } },
          { type: 'pg_create_select_permission', args: { table: table(name), role: 'user', permission: { columns: '*', filter: {} } } },
        ]),
        children('a', 'b', 'a_id'),
        children('b', 'c', 'b_id'),
      ],
    });
    expect(setUp.status).toBe(200);
    expectResponse(
      await t.graphql('{ cost_fresh_a(order_by: {id: asc}) { id bs { id cs(order_by: {id: asc}) { id } } } }', undefined, { headers: asUser(t) }),
      200,
      {
        data: {
          cost_fresh_a: [
            { id: 1, bs: [{ id: 10, cs: [{ id: 100 }] }] },
            { id: 2, bs: [{ id: 20, cs: [{ id: 200 }, { id: 201 }] }] },
          ],
        },
      },
    );
  },
);
