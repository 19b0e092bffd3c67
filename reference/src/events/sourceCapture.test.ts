// Moving the events other sources captured (events/sourceCapture.ts), against recording fakes of
// the pools: which sources are asked, what each is sent, and that every connection goes back.
import type { Pool } from 'pg';
import type { MetadataDocument, SourceEntry } from '../../../spec';
import { SourceEventMover } from './sourceCapture';

interface Recorded {
  texts: string[];
  released: number;
}

/** A pool whose connection answers each statement with `answer(text)` (or throws what it gives). */
function fakePool(recorded: Recorded, answer: (text: string) => unknown[] | Error): Pool {
  const client = {
    query: async ({ text }: { text: string }) => {
      recorded.texts.push(text.replace(/\s+/g, ' ').trim());
      const rows = answer(text);
      if (rows instanceof Error) throw rows;
      return { rows };
    },
    release: () => {
      recorded.released += 1;
    },
  };
  return { connect: async () => client, query: client.query } as unknown as Pool;
}

const trigger = {
  name: 't',
  definition: { enable_manual: true },
  webhook: 'http://127.0.0.1:1/hook',
  retry_conf: { num_retries: 0, interval_sec: 10, timeout_sec: 60 },
};
const source = (name: string, withTrigger: boolean) => ({
  name,
  kind: 'postgres',
  configuration: { connection_info: { database_url: `postgres://x@127.0.0.1:1/${name}` } },
  tables: [{ table: { schema: 'public', name: 'ticket' }, ...(withTrigger ? { event_triggers: [trigger] } : {}) }],
});
const documentOf = (...sources: ReturnType<typeof source>[]) => ({ version: 2, tables: [], sources }) as unknown as MetadataDocument;
const event = {
  id: '00000000-0000-0000-0000-000000000001',
  trigger_name: 't',
  schema_name: 'public',
  table_name: 'ticket',
  op: 'INSERT',
  data: {},
  session_variables: null,
  created_at: 'now',
};

test('a source with event triggers is asked for its captured events, which go to the log before its transaction commits; its connection goes back', async () => {
  const there: Recorded = { texts: [], released: 0 };
  const idle: Recorded = { texts: [], released: 0 };
  const catalog: Recorded = { texts: [], released: 0 };
  const pools = new Map<string, Pool>([
    ['idle', fakePool(idle, () => [{ present: true }])],
    ['busy', fakePool(there, (text) => (text.includes('to_regclass') ? [{ present: true }] : text.includes('delete from') ? [event] : []))],
  ]);
  const mover = new SourceEventMover(
    fakePool(catalog, () => []),
    { poolOf: (s: SourceEntry) => pools.get(s.name) ?? { problem: 'not here' } },
    () => documentOf(source('busy', true), source('idle', false), source('gone', true)),
  );
  await mover.move();
  expect(there.texts.map((t) => t.split(' ')[0])).toEqual(['begin', 'select', 'delete', 'commit']);
  expect(there.released).toBe(1);
  // Without event triggers a source is not reached at all.
  expect(idle.texts).toEqual([]);
  expect(catalog.texts).toHaveLength(1);
  expect(catalog.texts[0]).toMatch(/^insert into "engine_catalog"\."event_log" .* on conflict \(id\) do nothing$/);
});

test('a source without the capture table is not asked for events; one that fails is rolled back, its connection given back, and the others still moved', async () => {
  const bare: Recorded = { texts: [], released: 0 };
  const failing: Recorded = { texts: [], released: 0 };
  const catalog: Recorded = { texts: [], released: 0 };
  const pools = new Map<string, Pool>([
    ['bare', fakePool(bare, (text) => (text.includes('to_regclass') ? [{ present: false }] : []))],
    [
      'failing',
      fakePool(failing, (text) => (text.includes('delete from') ? new Error('connection lost') : text.includes('to_regclass') ? [{ present: true }] : [])),
    ],
  ]);
  const mover = new SourceEventMover(
    fakePool(catalog, () => []),
    { poolOf: (s: SourceEntry) => pools.get(s.name)! },
    () => documentOf(source('failing', true), source('bare', true)),
  );
  await mover.move();
  expect(failing.texts.map((t) => t.split(' ')[0])).toEqual(['begin', 'select', 'delete', 'rollback']);
  expect(failing.released).toBe(1);
  expect(bare.texts.map((t) => t.split(' ')[0])).toEqual(['begin', 'select', 'commit']);
  expect(bare.released).toBe(1);
  expect(catalog.texts).toEqual([]);
});
