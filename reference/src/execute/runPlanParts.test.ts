// runPlan's parts beside its own statements: root fields of a remote schema (a GraphQL server on
// loopback), of other sources, and relationships to tables of sources, on pools that answer as told.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphQLNonNull, GraphQLString, parse, type FieldNode, type OperationDefinitionNode } from 'graphql';
import type { Pool } from 'pg';
import { RemoteAnswerBytes } from '../remote/answerBytes';
import type { JoinKeys } from '../sql/graphql/sourceJoin';
import type { CompiledPlan, PlanStatement, RemoteJoin } from './plan';
import { StatementGenerations } from './preparedStatements';
import { runPlan, type PlanCaller, type PlanPools } from './runPlan';

/** Pools whose every connection answers `data` for each named statement, and logs what it is sent. */
function poolsOf(label: string, log: string[], data: (name: string) => string | Promise<string>, parts: Partial<PlanPools> = {}): PlanPools {
  const query = async (config: { name?: string; text: string }) => {
    log.push(`${label}: ${config.name ?? config.text}`);
    return { rows: config.name ? [{ data: await data(config.name), ok: true }] : [] };
  };
  const pool = { connect: async () => ({ processID: 1, query, release: () => {} }), query } as unknown as Pool;
  return {
    admin: pool,
    adminGraphql: pool,
    roles: pool,
    gate: { enter: async () => () => {} } as unknown as PlanPools['gate'],
    statementTimeoutMs: 0,
    adminStatementTimeoutMs: 0,
    maxQueryCost: 0,
    statements: new StatementGenerations(),
    ...parts,
  };
}

const statement = (alias: string, values: unknown[] = []): PlanStatement => ({ alias, name: alias, text: `select ${alias}`, values });
const plan = (parts: Partial<CompiledPlan>): CompiledPlan => ({
  kind: 'query',
  bounded: true,
  operation: 'query',
  statements: [],
  literals: new Map(),
  order: [],
  ...parts,
});

let server: Server;
let url: string;
let heard: { headers: IncomingHttpHeaders; log: string[] } | undefined;
let remoteAnswer: unknown = { data: { r: 'remote' } };
beforeAll(async () => {
  server = createServer((req, res) => {
    heard?.log.push('remote');
    if (heard) heard.headers = req.headers;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(remoteAnswer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const remotePart = (forwardClientHeaders = false) => ({
  endpoint: { name: 'r', url, shown: url, headers: {}, forwardClientHeaders, timeoutMs: 2000 },
  aliases: ['r'],
  body: { query: '{ r }', variables: {} },
});
const caller: PlanCaller = { session: { role: 'user', variables: {} }, headers: { 'x-client': 'c' } };

describe('root fields of a remote schema beside the tables', () => {
  test("a mutation: the database's root fields first, then the remote's; one answer of both in the plan's order", async () => {
    const log: string[] = [];
    let remoteAsked!: () => void;
    const asked = new Promise<void>((resolve) => (remoteAsked = resolve));
    heard = { headers: {}, log: { push: (entry: string) => (log.push(entry), remoteAsked()) } as unknown as string[] };
    remoteAnswer = { data: { r: 'remote' } };
    // A mutation's statement answers its field's value: here whether the remote was asked while it ran.
    const pools = poolsOf('own', log, () =>
      Promise.race([asked.then(() => '"remote asked"'), new Promise<string>((resolve) => setTimeout(() => resolve('"alone"'), 300))]),
    );
    const mutation = plan({ kind: 'mutation', operation: 'mutation', statements: [statement('a')], order: ['r', 'a'], remote: [remotePart(true)] });
    expect(await runPlan(pools, mutation, caller)).toBe('{"data":{"r":"remote","a":"alone"}}');
    expect(log).toEqual(['own: begin', 'own: a', 'own: commit', 'remote']);
    expect([heard.headers['x-engine-role'], heard.headers['x-client']]).toEqual(['user', 'c']);
  });

  test('a query: both asked at once (the database waits for the remote here)', async () => {
    const log: string[] = [];
    let remoteAsked!: () => void;
    const asked = new Promise<void>((resolve) => (remoteAsked = resolve));
    heard = { headers: {}, log: { push: (entry: string) => (log.push(entry), remoteAsked()) } as unknown as string[] };
    const pools = poolsOf('own', log, async () => {
      const waited = await Promise.race([asked.then(() => 'remote asked'), new Promise((resolve) => setTimeout(() => resolve('alone'), 500))]);
      return JSON.stringify({ a: waited });
    });
    const query = plan({ statements: [statement('a')], order: ['a', 'r'], remote: [remotePart()] });
    expect(await runPlan(pools, query, caller)).toBe('{"data":{"a":"remote asked","r":"remote"}}');
  });

  test("without a caller: admin's session, no client headers; the remote's errors after the data", async () => {
    const log: string[] = [];
    heard = { headers: {}, log };
    remoteAnswer = { data: { r: null }, errors: [{ message: 'no r' }] };
    const pools = poolsOf('own', log, () => '{"a":1}', { remoteAnswers: new RemoteAnswerBytes(1000, 1000) });
    const query = plan({ statements: [statement('a')], order: ['a', 'r'], remote: [remotePart(true)], literals: new Map([['t', '"query_root"']]) });
    expect(await runPlan(pools, { ...query, order: ['t', 'a', 'r'] })).toBe('{"data":{"t":"query_root","a":1,"r":null},"errors":[{"message":"no r"}]}');
    expect([heard.headers['x-engine-role'], heard.headers['x-client']]).toEqual(['admin', undefined]);
  });

  test('only remote fields: no statement run', async () => {
    const log: string[] = [];
    heard = { headers: {}, log };
    remoteAnswer = { data: { r: 'remote' } };
    expect(
      await runPlan(
        poolsOf('own', log, () => '{}'),
        plan({ order: ['r'], remote: [remotePart()] }),
        caller,
      ),
    ).toBe('{"data":{"r":"remote"}}');
    expect(log).toEqual(['remote']);
  });

  test("a plan without remote parts holds no remote answers' bytes: it is not told when its answer is written", async () => {
    const bytes = new RemoteAnswerBytes(1000, 1000);
    let told = false;
    const pools = poolsOf('own', [], () => '{"a":1}', { remoteAnswers: bytes });
    await runPlan(pools, plan({ statements: [statement('a')], order: ['a'] }), { ...caller, whenWritten: () => (told = true) });
    expect(told).toBe(false);
  });
});

describe('root fields of other sources', () => {
  test("each source's part on its pools (a mutation's on its primary), the server's own beside them; literals kept over a part's null", async () => {
    const log: string[] = [];
    const asked: [string, boolean][] = [];
    const other = poolsOf('other', log, (name) => (name === 'b' ? '{"b":2,"t":null}' : '3'));
    let released = 0;
    const pools = poolsOf('own', log, () => '{"a":1}', {
      sourcePools: (source, write) => (asked.push([source, write]), { ...other, release: () => void released++ }),
    });
    const parts = [
      { source: 'other', plan: plan({ statements: [statement('b')], order: ['b', 't'] }) },
      { source: 'other', plan: plan({ kind: 'mutation', operation: 'mutation', statements: [statement('m')], order: ['m', 'gone'] }) },
    ];
    const whole = plan({ statements: [statement('a')], order: ['t', 'a', 'b', 'm', 'gone'], literals: new Map([['t', '"query_root"']]), sourceParts: parts });
    expect(await runPlan(pools, whole, caller)).toBe('{"data":{"t":"query_root","a":1,"b":2,"m":3,"gone":null}}');
    expect(asked).toEqual([
      ['other', false],
      ['other', true],
    ]);
    expect(released).toBe(2);
    expect(log.filter((l) => l.startsWith('own'))).toEqual(['own: a']);
  });

  test("no statement of the server's own: its literals alone", async () => {
    const log: string[] = [];
    const other = poolsOf('other', log, () => '{"b":2,"t":"from the source"}');
    const pools = poolsOf('own', log, () => '{}', { sourcePools: () => other });
    const whole = plan({
      order: ['t', 'b'],
      literals: new Map([['t', '"query_root"']]),
      sourceParts: [{ source: 'other', plan: plan({ statements: [statement('b')], order: ['b'] }) }],
    });
    // A part's own value of a literal's key is its answer; only a null leaves the literal.
    expect(await runPlan(pools, whole, caller)).toBe('{"data":{"t":"from the source","b":2}}');
    expect(log).toEqual(['other: b']);
  });
});

describe('relationships to tables of sources', () => {
  const keys = { join: 'keys' } as unknown as JoinKeys;
  const withJoin = (source: string | undefined) =>
    plan({
      statements: [statement('a')],
      order: ['a'],
      remoteJoins: {
        joins: [
          {
            stage: 0,
            ...(source ? { source } : {}),
            joins: [{ path: ['a', 'rel'], lhs: ['id'], keys }],
            plan: plan({ statements: [statement('j', [keys])], order: ['0'] }),
          },
        ],
        endpoints: new Map(),
      },
    });

  test("on the server's own database, and on another source: each row gets its target's value", async () => {
    for (const source of [undefined, 'other']) {
      const log: string[] = [];
      const answer = (name: string) => (name === 'a' ? '{"a":[{"id":1,"rel":{"id":1}},{"id":2,"rel":{"id":2}}]}' : '{"0":[{"name":"one"},{"name":"two"}]}');
      const other = poolsOf('other', log, answer);
      const writes: boolean[] = [];
      const pools = poolsOf('own', log, answer, { sourcePools: (_, write) => (writes.push(write), other) });
      expect(await runPlan(pools, withJoin(source), caller)).toBe('{"data":{"a":[{"id":1,"rel":{"name":"one"}},{"id":2,"rel":{"name":"two"}}]}}');
      expect(log).toEqual(source ? ['own: a', 'other: j'] : ['own: a', 'own: j']);
      // A join reads: on a replica where the source has one.
      expect(writes).toEqual(source ? [false] : []);
    }
  });
});

describe('relationships to a remote schema', () => {
  const field = (parse('{ f { name } }').definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode;
  const join: RemoteJoin = {
    name: 'rel',
    path: ['a', 'x'],
    remote: 'geo',
    lhs: ['c'],
    steps: [{ name: 'country', arguments: { code: '$c' }, argumentTypes: { code: new GraphQLNonNull(GraphQLString) } }],
    field,
    selectionSet: field.selectionSet,
    fragments: [],
    variableDefinitions: [],
    variables: {},
  };
  // A function: the server's address is known once it listens.
  const withJoin = () =>
    plan({
      statements: [statement('a')],
      order: ['a'],
      remoteJoins: { joins: [join], endpoints: new Map([['geo', { name: 'geo', url, shown: url, headers: {}, forwardClientHeaders: true, timeoutMs: 2000 }]]) },
    });
  const answer = '{"data":{"a":[{"x":{"name":"Norway"}}]}}';

  test("the rows completed by the remote, asked with the caller's session and headers, its answer's bytes held until written", async () => {
    heard = { headers: {}, log: [] };
    remoteAnswer = { data: { r0: { name: 'Norway' } } };
    const bytes = new RemoteAnswerBytes(1000, 1000);
    const pools = poolsOf('own', [], () => '{"a":[{"x":{"c":"NO"}}]}', { remoteAnswers: bytes });
    let written!: () => void;
    expect(await runPlan(pools, withJoin(), { ...caller, whenWritten: (done) => (written = done) })).toBe(answer);
    expect([heard.headers['x-engine-role'], heard.headers['x-client']]).toEqual(['user', 'c']);
    expect(bytes.heldBy('user')).toBeGreaterThan(0);
    written();
    expect(bytes.heldBy('user')).toBe(0);
  });

  test("without a caller: admin's session, no client headers", async () => {
    heard = { headers: {}, log: [] };
    remoteAnswer = { data: { r0: { name: 'Norway' } } };
    const pools = poolsOf('own', [], () => '{"a":[{"x":{"c":"NO"}}]}');
    expect(await runPlan(pools, withJoin())).toBe(answer);
    expect([heard.headers['x-engine-role'], heard.headers['x-client']]).toEqual(['admin', undefined]);
  });
});
