// Several servers on one database: a server whose copy of the metadata lags behind another server's
// change (the change notice is still on its way, or its refresh is still reading) takes work with the
// stored metadata, never with its old copy. Here the lagging server is a worker given the copy read
// before the change, as it would hold it in that moment.
import { httpRequest } from '../../../conformance/harness/client';
import type { MetadataDocument } from '../../../spec';
import { useWorkerDatabase } from '../../test-support/workerDatabase';
import { createLogger } from '../log';
import { startServer, type RunningServer } from '../server';
import * as q from '../sql';
import { ActionWorker } from '../actions/worker';
import type { PollingWorker } from './polling';
import { Scheduler } from './scheduler';
import { EventWorker } from './worker';

const fixture = useWorkerDatabase('stale-copy', 'create schema stale; create table stale.item (id integer primary key)');
const { db, config, secret: SECRET } = fixture;
const running: PollingWorker[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((w) => w.stop(1000)));
});

/** Changes made through a server that then stops, and the copy of the metadata read before the last change. */
async function changedElsewhere(before: [string, unknown][], change: [string, unknown]): Promise<{ document: MetadataDocument; resourceVersion: number }> {
  const server: RunningServer = await startServer(config, db.url, createLogger('silent'));
  const run = async ([type, args]: [string, unknown]) => {
    const r = await httpRequest(server.url, 'POST', '/v1/metadata', { body: { type, args }, headers: { 'x-engine-admin-secret': SECRET } });
    expect({ type, status: r.status, body: r.body }).toEqual({ type, status: 200, body: expect.anything() });
  };
  try {
    for (const step of before) await run(step);
    const [stored] = await q.run<{ metadata: MetadataDocument; resource_version: number }>(db.client, q.readMetadata);
    await run(change);
    return { document: stored!.metadata, resourceVersion: stored!.resource_version };
  } finally {
    await server.close();
  }
}

const logger = createLogger('silent');

test('an event trigger given another webhook elsewhere delivers to the new one', async () => {
  const trigger = (path: string, replace = false) => ({
    name: 'moved',
    table: { schema: 'stale', name: 'item' },
    webhook: `${fixture.hook().url}${path}`,
    insert: { columns: '*' },
    ...(replace ? { replace: true } : {}),
  });
  const stale = await changedElsewhere(
    [
      ['track_table', { table: { schema: 'stale', name: 'item' } }],
      ['create_event_trigger', trigger('/old')],
    ],
    ['create_event_trigger', trigger('/new', true)],
  );
  const worker = new EventWorker(fixture.pool(), config.events, () => stale, logger);
  running.push(worker);
  worker.start();
  await db.client.query('insert into stale.item values (1)');
  const [call] = await fixture.hook().waitFor('/new', 1, 10_000);
  expect((call!.body as { trigger: unknown; event: { data: unknown } }).event.data).toEqual({ old: null, new: { id: 1 } });
  expect(fixture.hook().callsTo('/old')).toEqual([]);
});

test('a cron trigger given another webhook elsewhere delivers to the new one', async () => {
  const cron = (path: string, replace = false) => ({
    name: 'moved_cron',
    webhook: `${fixture.hook().url}${path}`,
    schedule: '* * * * *',
    payload: { from: path },
    include_in_metadata: true,
    ...(replace ? { replace: true } : {}),
  });
  const stale = await changedElsewhere([['create_cron_trigger', cron('/cron-old')]], ['create_cron_trigger', cron('/cron-new', true)]);
  const worker = new Scheduler(fixture.pool(), config.events, () => stale, logger);
  running.push(worker);
  worker.start();
  // An invocation due now, as the scheduler would have made it.
  await q.run(db.client, q.insertCronInvocations('moved_cron', [new Date()]));
  const [call] = await fixture.hook().waitFor('/cron-new', 1, 10_000);
  expect((call!.body as { payload: unknown }).payload).toEqual({ from: '/cron-new' });
  expect(fixture.hook().callsTo('/cron-old')).toEqual([]);
});

test('an action given another handler elsewhere is called at the new one', async () => {
  const types = { objects: [{ name: 'Moved', fields: [{ name: 'at', type: 'String!' }] }] };
  const action = (path: string) => ({
    name: 'moveIt',
    definition: { kind: 'asynchronous', type: 'mutation', arguments: [], output_type: 'Moved', handler: `${fixture.hook().url}${path}` },
  });
  const stale = await changedElsewhere(
    [
      ['set_custom_types', types],
      ['create_action', action('/action-old')],
    ],
    ['update_action', action('/action-new')],
  );
  const worker = new ActionWorker(fixture.pool(), config.events, () => stale, logger);
  running.push(worker);
  worker.start();
  // A request as the mutation logs it; the handler's answer does not matter here, only where it goes.
  await q.run(db.client, q.insertActionRequest({ name: 'moveIt', input: {}, sessionVariables: { 'x-engine-role': 'admin' }, query: 'mutation { moveIt }' }));
  await fixture.hook().waitFor('/action-new', 1, 10_000);
  expect(fixture.hook().callsTo('/action-old')).toEqual([]);
});
