// An operation's share for each remote schema (what is sent) and the splicing of the answers
// (what comes back), against GraphQL servers on loopback.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Kind, parse, type FieldNode, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import type { RemoteEndpoint } from '../remote/client';
import type { CollectedField } from '../sql/graphql/fields';
import { RemoteAnswerBytes } from '../remote/answerBytes';
import { RemoteCallFailed, remoteParts, runRemoteParts, type RemotePart } from './remote';

/** The operation of a document, its top-level fields as collected, and its fragments by name. */
function prepared(text: string) {
  const document = parse(text);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const fragments = Object.fromEntries(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
  );
  const fields = operation.selectionSet.selections.map((s): CollectedField => {
    const node = s as FieldNode;
    return { alias: node.alias?.value ?? node.name.value, name: node.name.value, node, selectionSet: node.selectionSet, args: {}, definition: undefined };
  });
  return { operation, fields, fragments };
}

const endpoint = (name: string, url = 'http://127.0.0.1:9/graphql'): RemoteEndpoint => ({
  name,
  url,
  headers: {},
  forwardClientHeaders: false,
  timeoutMs: 2000,
  shown: url,
});
const ENDPOINTS = new Map([
  ['one', endpoint('one')],
  ['two', endpoint('two')],
]);
const OWNERS: Record<string, string> = { hello: 'one', count: 'one', user: 'two', echo: 'two' };

describe('remoteParts', () => {
  test('one part per remote, in the order their first fields come, each with its own fields and aliases', () => {
    const { operation, fields, fragments } = prepared('query Q { user(id: 1) { name } greeting: hello count echo(text: "hi") }');
    const parts = remoteParts(operation, fields, (n) => OWNERS[n], ENDPOINTS, fragments, { unused: 1 });
    expect(parts.map((p) => ({ endpoint: p.endpoint.name, aliases: p.aliases, body: p.body }))).toEqual([
      {
        endpoint: 'two',
        aliases: ['user', 'echo'],
        body: { query: 'query Q {\n  user(id: 1) {\n    name\n  }\n  echo(text: "hi")\n}', variables: {}, operationName: 'Q' },
      },
      { endpoint: 'one', aliases: ['greeting', 'count'], body: { query: 'query Q {\n  greeting: hello\n  count\n}', variables: {}, operationName: 'Q' } },
    ]);
  });

  test('each part declares and sends only the variables its fields and fragments read; an anonymous operation has no name', () => {
    const text = `query ($a: Int, $b: String, $c: Boolean, $d: Int) {
      user(id: $a) { ...Outer }
      echo(text: $b)
      hello
    }
    fragment Outer on User { name ...Inner }
    fragment Inner on User { friends(first: $d) { name } }
    fragment Unused on User { name @include(if: $c) }`;
    const { operation, fields, fragments } = prepared(text);
    const parts = remoteParts(operation, fields, (n) => OWNERS[n], ENDPOINTS, fragments, { a: 1, b: 'x', c: true, d: 2 });
    expect(parts.map((p) => p.body)).toEqual([
      {
        query:
          'query ($a: Int, $b: String, $d: Int) {\n  user(id: $a) {\n    ...Outer\n  }\n  echo(text: $b)\n}\n\n' +
          'fragment Outer on User {\n  name\n  ...Inner\n}\n\nfragment Inner on User {\n  friends(first: $d) {\n    name\n  }\n}',
        variables: { a: 1, b: 'x', d: 2 },
      },
      { query: '{\n  hello\n}', variables: {} },
    ]);
  });

  test('a fragment spread twice, and fragments spreading each other, are sent once each', () => {
    const text = `query { a: user(id: 1) { ...F } b: user(id: 2) { ...F ...G } }
    fragment F on User { name ...G }
    fragment G on User { id ...F }`;
    const { operation, fields, fragments } = prepared(text);
    const [part] = remoteParts(operation, fields, (n) => OWNERS[n], ENDPOINTS, fragments, {});
    expect(part!.body.query.match(/fragment F on User/g)).toHaveLength(1);
    expect(part!.body.query.match(/fragment G on User/g)).toHaveLength(1);
    expect(part!.aliases).toEqual(['a', 'b']);
  });

  test('an operation built without variable definitions declares none', () => {
    const { operation, fields, fragments } = prepared('{ hello }');
    const bare: OperationDefinitionNode = { kind: Kind.OPERATION_DEFINITION, operation: operation.operation, selectionSet: operation.selectionSet };
    const [part] = remoteParts(bare, fields, (n) => OWNERS[n], ENDPOINTS, fragments, {});
    expect(part!.body).toEqual({ query: '{\n  hello\n}', variables: {} });
  });

  test("a mutation stays a mutation; a field's merged sub-selection is what is sent", () => {
    const { operation, fields, fragments } = prepared('mutation M { echo(text: "x") }');
    const merged = parse('{ x { a b } }').definitions[0] as OperationDefinitionNode;
    const withSelection = fields.map((f) => ({ ...f, selectionSet: (merged.selectionSet.selections[0] as FieldNode).selectionSet }));
    const [part] = remoteParts(operation, withSelection, (n) => OWNERS[n], ENDPOINTS, fragments, {});
    expect(part!.body).toEqual({ query: 'mutation M {\n  echo(text: "x") {\n    a\n    b\n  }\n}', variables: {}, operationName: 'M' });
  });
});

interface Seen {
  body: unknown;
  headers: IncomingHttpHeaders;
}

/** A GraphQL server on loopback answering each request with `answer` (status 200 unless given). */
async function remoteServer(answer: unknown, status = 200): Promise<{ url: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      seen.push({ body: JSON.parse(text), headers: req.headers });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof answer === 'string' ? answer : JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/graphql`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const part = (name: string, url: string, aliases: string[], query = '{ x }'): RemotePart => ({
  endpoint: endpoint(name, url),
  aliases,
  body: { query, variables: { v: 1 } },
});

describe('runRemoteParts', () => {
  const servers: { close: () => Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  const serve = async (answer: unknown, status?: number) => {
    const s = await remoteServer(answer, status);
    servers.push(s);
    return s;
  };

  test("each alias's value as JSON text, a missing alias as null, and the remotes' errors in the order of the parts", async () => {
    const one = await serve({ data: { a: { n: 1 }, b: [1, 'two'] }, errors: [{ message: 'first of one' }] });
    const two = await serve({ data: { c: 'x' }, errors: [{ message: 'of two', path: ['c'] }, { message: 'again' }] });
    const result = await runRemoteParts([part('one', one.url, ['a', 'b', 'missing']), part('two', two.url, ['c'])], undefined, {});
    expect(Object.fromEntries(result.values)).toEqual({ a: '{"n":1}', b: '[1,"two"]', missing: 'null', c: '"x"' });
    expect(result.errors).toEqual([{ message: 'first of one' }, { message: 'of two', path: ['c'] }, { message: 'again' }]);
    expect(one.seen.map((s) => s.body)).toEqual([{ query: '{ x }', variables: { v: 1 } }]);
  });

  test('data that is null or not an object gives null for every alias; errors that are not a list are left out', async () => {
    const nullData = await serve({ data: null, errors: [{ message: 'failed' }] });
    const listData = await serve({ data: [1], errors: { message: 'not a list' } });
    // A string has a length: it is still no object of fields.
    const textData = await serve({ data: 'abc' });
    const result = await runRemoteParts(
      [part('one', nullData.url, ['a']), part('two', listData.url, ['b']), part('three', textData.url, ['length'])],
      undefined,
      {},
    );
    expect(Object.fromEntries(result.values)).toEqual({ a: 'null', b: 'null', length: 'null' });
    expect(result.errors).toEqual([{ message: 'failed' }]);
  });

  test('a fault of the server itself is not disguised as a remote that did not answer', async () => {
    const one = await serve({ data: { a: 1 } });
    const broken = { role: 'user', variables: null as unknown as Record<string, string> };
    await expect(runRemoteParts([part('one', one.url, ['a'])], broken, {})).rejects.toThrow(TypeError);
  });

  test("the session's role and variables go with the request", async () => {
    const one = await serve({ data: { a: 1 } });
    await runRemoteParts([part('one', one.url, ['a'])], { role: 'user', variables: { 'x-engine-user-id': '7' } }, { 'x-other': 'kept out' });
    expect(one.seen[0]!.headers).toMatchObject({ 'x-engine-role': 'user', 'x-engine-user-id': '7', 'content-type': 'application/json' });
    expect(one.seen[0]!.headers['x-other']).toBeUndefined();
  });

  test('a remote that answers no GraphQL result fails the request, naming the remote', async () => {
    const ok = await serve({ data: { a: 1 } });
    const bad = await serve({ message: 'not graphql' }, 502);
    const run = runRemoteParts([part('one', ok.url, ['a']), part('two', bad.url, ['b'])], undefined, {});
    await expect(run).rejects.toThrow(RemoteCallFailed);
    await expect(runRemoteParts([part('two', bad.url, ['b'])], undefined, {})).rejects.toThrow(
      'the remote schema "two" did not answer: it answered 502 without "data" or "errors"',
    );
  });

  test("a remote that cannot be reached fails the request, naming its address in the engine's words", async () => {
    const gone = await serve({});
    const url = gone.url;
    await servers.pop()!.close();
    await expect(runRemoteParts([part('gone', url, ['a'])], undefined, {})).rejects.toThrow(
      new RemoteCallFailed(`HTTP exception occurred while sending the request to ${JSON.stringify(url)}`),
    );
  });

  test("the answers of one request are bounded together: a part past the request's bound fails it, naming the remote [dec.limits.remote-answers]", async () => {
    const big = { data: { a: 'x'.repeat(30_000) } };
    const one = await serve(big);
    const two = await serve(big);
    const three = await serve(big);
    const bytes = new RemoteAnswerBytes(70_000, 1_000_000);
    const budget = bytes.forRequest('user');
    const parts = [part('one', one.url, ['a']), part('two', two.url, ['a']), part('three', three.url, ['a'])];
    await expect(runRemoteParts(parts, undefined, {}, budget)).rejects.toThrow(
      /did not answer: the remote answers of this request are larger than 70000 bytes together$/,
    );
    budget.release();
    expect(bytes.heldBy('user')).toBe(0);
    const within = bytes.forRequest('user');
    const result = await runRemoteParts(parts.slice(0, 2), undefined, {}, within);
    expect((JSON.parse(result.values.get('a')!) as string).length).toBe(30_000);
    expect(bytes.heldBy('user')).toBeGreaterThan(60_000);
    within.release();
  });

  test('no parts: nothing is sent, nothing answered', async () => {
    expect(await runRemoteParts([], undefined, {})).toEqual({ values: new Map(), errors: [] });
  });
});
