// GraphQL over HTTP on /v1/graphql: every audit of graphql-http (the reference implementation of
// the GraphQL-over-HTTP specification) at its level. MUST and SHOULD audits pass, with one
// recorded exception: a POST without Content-Type is taken, as dec.http.content-type decides for
// the scripts of the engine this API comes from (Python's requests.post(url, data=...) sends none),
// and that audit checks that it still is. MAY audits are reported, not required (the engine
// answers 200 with errors under application/json, as its clients expect).
import { serverAudits } from 'graphql-http';
import { covers } from '../harness/cases';
import { useTarget } from '../harness/target';

const target = useTarget();

/** The audits' requests, made as admin on this target. */
const adminFetch = (input: Parameters<typeof fetch>[0], init: RequestInit = {}) => {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(target.adminHeaders())) headers.set(name, value);
  return fetch(input, { ...init, headers });
};

const audits = serverAudits({ url: () => `${target.url}/v1/graphql`, fetchFn: adminFetch });
/** The SHOULD audit whose advice the engine does not follow, by decision. */
const NO_CONTENT_TYPE = '9ABE';

const level = (name: string) => name.split(' ')[0] as 'MUST' | 'SHOULD' | 'MAY';

describe('GraphQL over HTTP (graphql-http audits)', () => {
  test.each(audits.filter((a) => level(a.name) !== 'MAY' && a.id !== NO_CONTENT_TYPE).map((a) => [a.id, a.name, a] as const))(
    covers(['dec.graphql.over-http'], '%s %s'),
    async (_id, _name, audit) => {
      const result = await audit.fn();
      expect({ status: result.status, reason: result.status === 'ok' ? undefined : result.reason }).toEqual({ status: 'ok', reason: undefined });
    },
  );

  test(covers(['dec.graphql.over-http', 'dec.http.content-type'], 'a POST without Content-Type is taken (graphql-http audit 9ABE advises a 4xx)'), async () => {
    const audit = audits.find((a) => a.id === NO_CONTENT_TYPE)!;
    expect(audit.name).toBe('SHOULD respond with 4xx status code if content-type is not supplied on POST requests');
    const result = await audit.fn();
    expect(result.status).toBe('warn');
    // Bytes as the body: fetch adds no Content-Type.
    const r = await fetch(`${target.url}/v1/graphql`, {
      method: 'POST',
      headers: target.adminHeaders(),
      body: new TextEncoder().encode('{"query":"{ __typename }"}'),
    });
    expect({ status: r.status, body: await r.json() }).toEqual({ status: 200, body: { data: { __typename: 'query_root' } } });
  });

  test(
    covers(
      ['dec.graphql.over-http'],
      "under application/graphql-response+json a request that never ran is a 400; under application/json it stays a 200, as the engine's clients expect",
    ),
    async () => {
      const send = (accept: string, query: string) => target.request('POST', '/v1/graphql', { body: { query }, headers: { ...target.adminHeaders(), accept } });
      const parse = { errors: [{ message: 'Syntax Error: Expected Name, found <EOF>.', extensions: { path: '$', code: 'validation-failed' } }] };
      for (const [accept, status, type] of [
        ['application/graphql-response+json', 400, 'application/graphql-response+json'],
        ['application/graphql-response+json, application/json;q=0.9', 400, 'application/graphql-response+json'],
        ['application/json', 200, 'application/json'],
        ['*/*', 200, 'application/json'],
      ] as const) {
        const r = await send(accept, '{');
        expect([accept, r.status, r.headers.get('content-type')?.split(';')[0], r.body]).toEqual([accept, status, type, parse]);
        const ok = await send(accept, '{ __typename }');
        expect([accept, ok.status, ok.headers.get('content-type')?.split(';')[0], ok.body]).toEqual([
          accept,
          200,
          type,
          { data: { __typename: 'query_root' } },
        ]);
      }
    },
  );

  test(covers(['dec.http.request-id'], 'the legacy query endpoints, health, version, config and REST paths carry X-Request-Id too'), async () => {
    const answers = [
      await target.request('GET', '/healthz'),
      await target.request('GET', '/v1/version'),
      await target.request('GET', '/v1alpha1/config', { headers: target.adminHeaders() }),
      await target.request('POST', '/v2/query', { body: { type: 'run_sql', args: { sql: 'select 1' } }, headers: target.adminHeaders() }),
      await target.request('POST', '/v1/query', { body: { type: 'no_such_type', args: {} }, headers: target.adminHeaders() }),
      await target.request('GET', '/api/rest/no/such/endpoint', { headers: target.adminHeaders() }),
    ];
    const ids = answers.map((r) => r.headers.get('x-request-id') ?? '');
    expect(ids.map((id) => /^\S{8,}$/.test(id))).toEqual([true, true, true, true, true, true]);
    expect(new Set(ids).size).toBe(6);
    const mine = await target.request('POST', '/v2/query', {
      body: { type: 'run_sql', args: { sql: 'select 1' } },
      headers: { ...target.adminHeaders(), 'x-request-id': 'legacy-42' },
    });
    expect([mine.status, mine.headers.get('x-request-id')]).toEqual([200, 'legacy-42']);
  });

  test(covers(['dec.http.request-id'], "every answer carries X-Request-Id: the client's own, or a new one"), async () => {
    const answers = [
      await target.graphql('{ __typename }'),
      await target.request('POST', '/v1/graphql', { body: { query: '{' }, headers: { ...target.adminHeaders(), accept: 'application/graphql-response+json' } }),
      await target.metadata({ type: 'export_metadata', args: {} }),
      await target.metadata({ type: 'no_such_operation', args: {} }),
      await target.request('GET', '/v1/no-such-path'),
    ];
    const ids = answers.map((r) => r.headers.get('x-request-id') ?? '');
    expect(ids.map((id) => /^\S{8,}$/.test(id))).toEqual([true, true, true, true, true]);
    expect(new Set(ids).size).toBe(5);
    for (const path of ['/v1/graphql', '/v1/metadata']) {
      const body = path === '/v1/graphql' ? { query: '{ __typename }' } : { type: 'export_metadata', args: {} };
      const r = await target.request('POST', path, { body, headers: { ...target.adminHeaders(), 'x-request-id': 'my-request-7' } });
      expect([path, r.status, r.headers.get('x-request-id')]).toEqual([path, 200, 'my-request-7']);
    }
  });
});
