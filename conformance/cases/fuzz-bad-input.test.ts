// Bad input to every operation of spec/ at every endpoint that accepts it: generated argument
// values that the operation's own schema refuses (wrong types, missing and extra keys, hostile
// strings, deep nesting), and bodies of other media types. A target must answer each with a 4xx
// error envelope — never a 5xx, never success — and afterwards its metadata (with its resource
// version) and its data must be exactly what they were.
import fc from 'fast-check';
import { OPERATIONS_BY_TYPE } from '../../spec';

const OPERATIONS = [...OPERATIONS_BY_TYPE.values()];
import { brokenValueFor, HOSTILE_STRINGS } from '../harness/badInput';
import { covers } from '../harness/cases';
import { useTarget } from '../harness/target';
import { generatedRuns } from '../harness/generatedRuns';

const target = useTarget();
const RUNS = generatedRuns('ENGINE_BAD_INPUT_RUNS', 2, 12);
const seed = Number(process.env.ENGINE_FUZZ_SEED ?? Date.now() % 2 ** 31);

const exportV2 = async () => (await target.metadata({ type: 'export_metadata', version: 2, args: {} })).body;
const checksum = async () => (await target.sql(`select md5(string_agg(s::text, ',' order by id)) as sum from fuzz_bad.sentinel s`))[0]!.sum;
let before: { metadata: unknown; data: unknown };

beforeAll(async () => {
  await target.sql(`drop schema if exists fuzz_bad cascade; create schema fuzz_bad;
    create table fuzz_bad.sentinel (id int primary key, name text not null);
    insert into fuzz_bad.sentinel select g, 'row ' || g from generate_series(1, 5) g`);
  const replaced = await target.metadata({
    type: 'replace_metadata',
    args: {
      version: 2,
      tables: [{ table: { schema: 'fuzz_bad', name: 'sentinel' }, select_permissions: [{ role: 'user', permission: { columns: ['id'], filter: {} } }] }],
    },
  });
  expect(replaced.status).toBe(200);
  before = { metadata: await exportV2(), data: await checksum() };
});

const isErrorEnvelope = (body: unknown) =>
  typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string' && typeof (body as { code?: unknown }).code === 'string';

test(
  covers(
    ['err.parse-failed.arguments', 'rule.envelope.shape'],
    `generated bad arguments for every operation and endpoint are refused with a 4xx and change nothing (${RUNS} per operation version and endpoint)`,
  ),
  async () => {
    const failures: string[] = [];
    let tried = 0;
    for (const operation of OPERATIONS) {
      for (const version of operation.versions) {
        const broken = brokenValueFor(version.args.description).filter((args) => !version.args.parse(args, '$.args').ok);
        for (const endpoint of operation.endpoints) {
          const cases = fc.sample(broken, { numRuns: RUNS, seed: seed + tried });
          for (const args of cases) {
            tried++;
            const envelope = { type: operation.type, version: version.version, args };
            const r = await target.metadata(envelope, { endpoint });
            if (r.status < 400 || r.status >= 500 || !isErrorEnvelope(r.body)) {
              failures.push(`${operation.type} v${version.version} at ${endpoint} answered ${r.status} ${r.text.slice(0, 200)}\n  ${r.curl.slice(0, 600)}`);
            }
          }
        }
      }
    }
    process.stdout.write(
      `bad input: ${tried} generated requests over ${OPERATIONS.length} operations, seed ${seed}, ${failures.length} answered other than a 4xx error\n`,
    );
    expect(failures).toEqual([]);
    expect(tried).toBeGreaterThan(OPERATIONS.length * RUNS);
    expect(await exportV2()).toEqual(before.metadata);
    expect(await checksum()).toBe(before.data);
  },
  600_000,
);

const ENDPOINTS = ['/v1/metadata', '/v1/query', '/v2/query', '/v1/graphql'] as const;
const WRITES = [
  '{"type":"clear_metadata","args":{}}',
  '{"type":"run_sql","args":{"sql":"drop schema fuzz_bad cascade"}}',
  '{"type":"bulk","args":[{"type":"clear_metadata","args":{}}]}',
];

test(
  covers(
    ['dec.http.content-type', 'err.unsupported-media-type', 'dec.http.cross-origin'],
    'bodies of other media types and shapes: never a 5xx; from a page of another site, never run',
  ),
  async () => {
    const contentType = fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/graphql',
      '',
      'text/plain; charset=utf-8',
      'application/json',
    );
    const body = fc.oneof(
      fc.constantFrom('{', '[]', 'null', '"x"', '{"__proto__":{"type":"clear_metadata"},"args":{}}', '['.repeat(20_000)),
      fc.constantFrom(...WRITES),
      fc.constantFrom(...HOSTILE_STRINGS),
      fc.string({ maxLength: 40 }),
    );
    // What a page of another site sends with its form or fetch: an Origin, or Sec-Fetch-Site.
    const browser = fc.constantFrom<Record<string, string>>({}, { origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' });
    const failures: string[] = [];
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ENDPOINTS), contentType, body, browser, async (endpoint, type, text, page) => {
        const fromPage = Object.keys(page).length > 0;
        // A write sent by a client of its own (curl, a script) may run: such ones go only from pages.
        if (!fromPage && WRITES.includes(text)) return;
        tried++;
        const r = await target.request('POST', endpoint, { body: text, raw: true, headers: { ...target.adminHeaders(), 'content-type': type, ...page } });
        const refused = r.status >= 400 && r.status < 500;
        // GraphQL may be open to every origin (with an admin secret, by default); the admin APIs are not.
        if (r.status >= 500 || (fromPage && endpoint !== '/v1/graphql' && !refused))
          failures.push(`${endpoint} ${type} ${JSON.stringify(page)}: ${r.status} ${r.text.slice(0, 200)}\n  ${r.curl.slice(0, 400)}`);
      }),
      { numRuns: 200, seed },
    );
    process.stdout.write(`media types: ${tried} requests, ${failures.length} failures\n`);
    expect(failures).toEqual([]);
    expect(tried).toBeGreaterThan(100);
    expect(await exportV2()).toEqual(before.metadata);
    expect(await checksum()).toBe(before.data);
  },
);
