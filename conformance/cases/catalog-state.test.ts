// The catalog state (decision dec.catalog-state): two JSON values the server keeps for its tools
// beside the metadata, one for the CLI (where the engine's CLI records the migrations it applied)
// and one for the console, read with get_catalog_state and replaced with set_catalog_state.
import { covers } from '../harness/cases';
import { expectError, expectResponse } from '../harness/client';
import { useTarget } from '../harness/target';

const target = useTarget();
const read = async () => (await target.metadata({ type: 'get_catalog_state', args: {} })).body as { id: string; cli_state: unknown; console_state: unknown };
const set = (type: string, state: unknown) => target.metadata({ type: 'set_catalog_state', args: { type, state } });
const resourceVersion = async () =>
  ((await target.metadata({ type: 'export_metadata', version: 2, args: {} })).body as { resource_version: number }).resource_version;

let before: { cli_state: unknown; console_state: unknown };
beforeAll(async () => {
  before = await read();
});
// The state belongs to the target's tools: it is left as this file found it.
afterAll(async () => {
  await set('cli', before.cli_state);
  await set('console', before.console_state);
});

test(covers(['dec.catalog-state', 'op.get_catalog_state'], 'get_catalog_state answers the id of the catalog and both states'), async () => {
  const r = await target.metadata({ type: 'get_catalog_state', args: {} });
  expectResponse(r, 200, {
    id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
    cli_state: expect.anything(),
    console_state: expect.anything(),
  });
  expect(Object.keys(r.body as object).sort()).toEqual(['cli_state', 'console_state', 'id']);
  // The id names the catalog: it stays.
  expect((await read()).id).toBe((r.body as { id: string }).id);
});

test(
  covers(
    ['dec.catalog-state', 'op.set_catalog_state', 'op.get_catalog_state'],
    'set_catalog_state replaces one state whole, the other stays; the value comes back as it was sent',
  ),
  async () => {
    const cli = {
      settings: { migration_mode: 'true' },
      migrations: { default: { '1700000000000': false, '1700000000001': true } },
      isStateCopyCompleted: true,
    };
    expectResponse(await set('cli', cli), 200, { message: 'success' });
    expectResponse(await set('console', { onboardingShown: true }), 200, { message: 'success' });
    expect(await read()).toEqual({ id: expect.any(String), cli_state: cli, console_state: { onboardingShown: true } });
    // Whole: keys of the earlier value that the new one lacks are gone.
    expectResponse(await set('cli', { settings: { migration_mode: 'false' } }), 200, { message: 'success' });
    expect(await read()).toEqual({ id: expect.any(String), cli_state: { settings: { migration_mode: 'false' } }, console_state: { onboardingShown: true } });
    expectResponse(await set('console', {}), 200, { message: 'success' });
    expect(await read()).toEqual({ id: expect.any(String), cli_state: { settings: { migration_mode: 'false' } }, console_state: {} });
  },
);

test(covers(['dec.catalog-state'], 'the catalog state is not metadata: setting it keeps the resource version, and clear_metadata keeps it'), async () => {
  const version = await resourceVersion();
  expectResponse(await set('cli', { migrations: { default: { '1': false } } }), 200, { message: 'success' });
  expect(await resourceVersion()).toBe(version);
  expectResponse(await target.metadata({ type: 'clear_metadata', args: {} }), 200, { message: 'success' });
  expect((await read()).cli_state).toEqual({ migrations: { default: { '1': false } } });
});

test(covers(['dec.catalog-state', 'op.set_catalog_state'], 'set_catalog_state in a bulk commits with the rest of it, or not at all'), async () => {
  expectResponse(await set('cli', { migrations: {} }), 200, { message: 'success' });
  const refused = await target.metadata({
    type: 'bulk',
    args: [
      { type: 'set_catalog_state', args: { type: 'cli', state: { migrations: { default: { '2': false } } } } },
      { type: 'untrack_table', args: { table: { schema: 'public', name: 'no_such_table' } } },
    ],
  });
  expect(refused.status).toBe(400);
  expect((await read()).cli_state).toEqual({ migrations: {} });
});

test(covers(['dec.catalog-state', 'op.set_catalog_state'], 'a state of another kind, or a request without one, is refused and nothing changes'), async () => {
  expectResponse(await set('cli', { migrations: {} }), 200, { message: 'success' });
  expectError(await set('migrations', {}), 400, {
    path: '$.args.type',
    error: 'unexpected value "migrations"; expected one of "cli", "console"',
    code: 'parse-failed',
  });
  expectError(await target.metadata({ type: 'set_catalog_state', args: { type: 'cli' } }), 400, {
    path: '$.args',
    error: 'key "state" not found',
    code: 'parse-failed',
  });
  expectError(await target.metadata({ type: 'set_catalog_state', args: { state: {} } }), 400, {
    path: '$.args',
    error: 'key "type" not found',
    code: 'parse-failed',
  });
  expect((await read()).cli_state).toEqual({ migrations: {} });
});

test(covers(['dec.catalog-state', 'rule.auth.1:refused'], 'only admin reads or sets the catalog state'), async () => {
  const asUser = { headers: { ...target.adminHeaders(), 'x-engine-role': 'user' } };
  const adminOnly = { path: '$.args', error: 'restricted access : admin only', code: 'access-denied' };
  expectError(await target.metadata({ type: 'get_catalog_state', args: {} }, asUser), 400, adminOnly);
  expectError(await target.metadata({ type: 'set_catalog_state', args: { type: 'cli', state: {} } }, asUser), 400, adminOnly);
});
