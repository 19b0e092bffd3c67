// A deliberately different engine, for checking that a differential run finds and shrinks a
// difference: msw handlers of a proxy (served on loopback by the harness's mock server) in front of a real target that changes one behaviour. For role `r1`
// it rewrites every `c: {_nin: L, …}` of a GraphQL document into `_or: [{c: {_nin: L}}, {c:
// {_is_null: true}}]` (with the other operators kept beside it), so that `_nin` keeps NULLs for
// that role; everything else goes through unchanged.
import { http, HttpResponse, type RequestHandler } from 'msw';
import { Kind, parse, print, visit, type ObjectFieldNode, type ObjectValueNode, type ValueNode } from 'graphql';

const name = (value: string) => ({ kind: Kind.NAME, value }) as const;
const field = (key: string, value: ValueNode): ObjectFieldNode => ({ kind: Kind.OBJECT_FIELD, name: name(key), value });
const object = (fields: ObjectFieldNode[]): ObjectValueNode => ({ kind: Kind.OBJECT, fields });

const isColumnWithNin = (f: ObjectFieldNode) =>
  !f.name.value.startsWith('_') && f.value.kind === Kind.OBJECT && f.value.fields.some((x) => x.name.value === '_nin');

/** `c: {_nin: L, …rest}` as `{_and: [{c: {…rest}}, {_or: [{c: {_nin: L}}, {c: {_is_null: true}}]}]}`. */
function ninKeepingNulls(f: ObjectFieldNode): ObjectValueNode {
  const operators = (f.value as ObjectValueNode).fields;
  const nin = operators.find((x) => x.name.value === '_nin')!;
  const rest = operators.filter((x) => x !== nin);
  const column = (fields: ObjectFieldNode[]) => object([field(f.name.value, object(fields))]);
  const isNull = field('_is_null', { kind: Kind.BOOLEAN, value: true });
  const either = object([field('_or', { kind: Kind.LIST, values: [column([nin]), column([isNull])] })]);
  return object([field('_and', { kind: Kind.LIST, values: [column(rest), either] })]);
}

/** The GraphQL document with `_nin` keeping NULLs. */
export function plantNinKeepingNulls(document: string): string {
  const ast = visit(parse(document), {
    ObjectValue: {
      leave(node) {
        if (!node.fields.some(isColumnWithNin)) return undefined;
        // Each key on its own under one `_and`, so that no key appears twice.
        const parts = node.fields.map((f) => (isColumnWithNin(f) ? ninKeepingNulls(f) : object([f])));
        return object([field('_and', { kind: Kind.LIST, values: parts })]);
      },
    },
  });
  return print(ast);
}

/** Handlers of a proxy (a mock server) in front of `target` that plants the difference for role `r1`. */
export function plantedProxy(target: string): RequestHandler {
  return http.all('*', async ({ request }) => {
    const url = new URL(request.url);
    let body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
    if (url.pathname === '/v1/graphql' && request.headers.get('x-engine-role') === 'r1' && body !== undefined) {
      try {
        const parsed = JSON.parse(body) as { query: string };
        body = JSON.stringify({ ...parsed, query: plantNinKeepingNulls(parsed.query) });
      } catch {
        // not a document this proxy can read: sent as it came
      }
    }
    const headers = new Headers(request.headers);
    for (const h of ['host', 'content-length', 'connection']) headers.delete(h);
    const answer = await fetch(target + url.pathname + url.search, { method: request.method, headers, ...(body !== undefined ? { body } : {}) });
    return new HttpResponse(await answer.arrayBuffer(), {
      status: answer.status,
      headers: { 'content-type': answer.headers.get('content-type') ?? 'application/json' },
    });
  });
}
