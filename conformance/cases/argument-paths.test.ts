// Where a problem with an envelope's arguments is reported, endpoint by endpoint (decision
// dec.envelope.argument-paths): below $.args on /v1/metadata, below the envelope itself on the
// query endpoints, as the engine reads them there.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();
const orders = { schema: 'shop', name: 'orders' };
const customer = { schema: 'shop', name: 'customer' };
const unnamed = { type: 'create_object_relationship', args: { table: orders, name: '', using: { foreign_key_constraint_on: 'customer_id' } } };
const tracked = { type: 'track_table', args: { table: customer } };
const empty = (path: string) => ({ path, error: 'empty string not allowed', code: 'parse-failed' });
const exported = async () => (await target.metadata({ type: 'export_metadata', args: {} })).body;

beforeAll(async () => {
  await target.sql(fixtureSql('shop'));
});
beforeEach(async () => {
  await target.reset();
  expectResponse(await target.metadata({ type: 'track_table', args: { table: orders } }), 200);
});

test(
  covers(
    ['dec.envelope.argument-paths', 'err.parse-failed.empty-name'],
    'an empty relationship name is refused at $.args.name on /v1/metadata, at $.name on /v1/query',
  ),
  async () => {
    expectResponse(await target.metadata(unnamed), 400, empty('$.args.name'));
    expectResponse(await target.metadata(unnamed, { endpoint: '/v1/query' }), 400, empty('$.name'));
    expect(await exported()).toEqual({ version: 2, tables: [{ table: orders }] });
  },
);

test(covers(['dec.envelope.argument-paths', 'op.bulk'], 'in a bulk, the member is named by its place in the list on each endpoint'), async () => {
  const bulk = { type: 'bulk', args: [tracked, unnamed] };
  expectResponse(await target.metadata(bulk), 400, empty('$.args[1].args.name'));
  expectResponse(await target.metadata(bulk, { endpoint: '/v1/query' }), 400, empty('$[1].name'));
  expect(await exported()).toEqual({ version: 2, tables: [{ table: orders }] });
});

test(covers(['dec.envelope.argument-paths', 'err.parse-failed.arguments'], 'arguments that are not an object, and a missing key'), async () => {
  const notObject = { type: 'track_table', args: 5 };
  expectResponse(await target.metadata(notObject, { endpoint: '/v1/query' }), 400, {
    path: '$',
    error: 'expected a table name, or an object with "table", but encountered Number',
    code: 'parse-failed',
  });
  expectResponse(await target.metadata({ type: 'run_sql', args: {} }, { endpoint: '/v1/query' }), 400, {
    path: '$',
    error: 'key "sql" not found',
    code: 'parse-failed',
  });
  const nameless = { type: 'drop_relationship', args: { table: orders } };
  const missing = (path: string) => ({ path, error: 'key "relationship" not found', code: 'parse-failed' });
  expectResponse(await target.metadata(nameless), 400, missing('$.args'));
  expectResponse(await target.metadata(nameless, { endpoint: '/v1/query' }), 400, missing('$'));
});

test(covers(['dec.envelope.argument-paths', 'err.not-exists.table'], 'an error found after the arguments are read keeps $.args on /v1/query'), async () => {
  const nowhere = {
    type: 'create_object_relationship',
    args: { table: { schema: 'shop', name: 'nowhere' }, name: 'c', using: { foreign_key_constraint_on: 'x' } },
  };
  expectResponse(await target.metadata(nowhere, { endpoint: '/v1/query' }), 400, {
    path: '$.args',
    error: 'table "shop.nowhere" does not exist',
    code: 'not-exists',
  });
});

test(
  covers(
    ['dec.envelope.argument-paths', 'err.parse-failed.event-trigger-name', 'err.parse-failed.event-trigger-operations'],
    'create_event_trigger: a name it cannot take and a trigger without an operation are refused with the arguments',
  ),
  async () => {
    const trigger = (name: string, extra: Record<string, unknown>) => ({
      type: 'create_event_trigger',
      args: { name, table: orders, webhook: 'http://127.0.0.1:9/hook', ...extra },
    });
    const badName = trigger("bad'name", { enable_manual: true });
    const nameRefused = (path: string) => ({ path, error: 'event trigger name "bad\'name" must be 1 to 42 letters, digits, _ or -', code: 'parse-failed' });
    expectResponse(await target.metadata(badName, { endpoint: '/v1/query' }), 400, nameRefused('$'));
    expectResponse(await target.metadata(badName), 400, nameRefused('$.args'));
    const nothing = trigger('t1_1', {});
    const nothingRefused = (path: string) => ({
      path,
      error: 'event trigger "t1_1" has no operation: give insert, update, delete or enable_manual',
      code: 'parse-failed',
    });
    expectResponse(await target.metadata(nothing, { endpoint: '/v1/query' }), 400, nothingRefused('$'));
    expectResponse(await target.metadata(nothing), 400, nothingRefused('$.args'));
    expect(await exported()).toEqual({ version: 2, tables: [{ table: orders }] });
  },
);
