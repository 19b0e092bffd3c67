// GraphQL requests in flight while their source is dropped, renamed and added again (decision
// dec.source.in-flight): each is answered as the source was when it started, or with a GraphQL
// error of the request (its field gone from the new schema), never a server failure; every insert
// answered 200 is in the table, and no other.
import { caseNeeding } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { CHURN_TABLE_SQL, churn, churnSource } from '../harness/sourceChurn';
import { REQUIRES_SOURCE_DATABASE, useSourceDatabase } from '../harness/sourceDatabase';
import { useTarget } from '../harness/target';
import { openSocket } from '../harness/websocket';

const target = useTarget();
const churned = useSourceDatabase();
const churnTarget = {
  graphql: (query: string, role?: string) =>
    target.graphql(query, undefined, role ? { headers: { ...target.adminHeaders(), 'x-engine-role': role } } : undefined),
  metadata: (envelope: unknown) => target.metadata(envelope),
};

afterEach(async () => {
  await target.reset();
  if (REQUIRES_SOURCE_DATABASE.met) await churned.sql('drop table if exists public.churn_item');
});

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.in-flight', 'op.pg_drop_source', 'op.rename_source', 'op.replace_metadata.v1'],
  'queries and inserts on a source dropped, renamed and added again meanwhile are answered with data or a GraphQL error, and every insert answered is in the table',
  async () => {
    await churned.sql(CHURN_TABLE_SQL);
    expectResponse(await target.metadata({ type: 'replace_metadata', args: { version: 2, tables: [], sources: [churnSource('churned', churned.url)] } }), 200, {
      message: 'success',
    });
    // A short storm (a few seconds); `npm run test:reliability` runs a longer one with subscriptions.
    const counts = await churn(churnTarget, churned.url, { workers: 6, turns: 4, minMs: 1500, tag: 'short' });
    expect({
      failures: counts.failures,
      outcomes: Object.keys(counts.outcomes).filter((k) => !/^200 (data|validation-failed|not-exists)$/.test(k)),
    }).toEqual({
      failures: [],
      outcomes: [],
    });
    // Both kinds of answer were met: the storm reached the source and the moments it was gone.
    expect(counts.outcomes['200 data']).toBeGreaterThan(0);
    expect(counts.outcomes['200 validation-failed']).toBeGreaterThan(0);
    const rows = await churned.sql("select note from public.churn_item where note like 'short-%' order by note");
    expect(rows.map((r) => r.note)).toEqual([...counts.inserted].sort());
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  ['dec.source.in-flight', 'op.pg_drop_source'],
  "a subscription whose source is dropped is answered that its field is gone, and one on the server's own database goes on",
  async () => {
    await churned.sql(CHURN_TABLE_SQL);
    await churned.sql("insert into public.churn_item (note) values ('kept')");
    await target.sql('create table public.stays (id int primary key); insert into public.stays values (1)');
    const socket = openSocket(target);
    try {
      const document = { version: 2, tables: [{ table: { schema: 'public', name: 'stays' } }], sources: [churnSource('churned', churned.url)] };
      expectResponse(await target.metadata({ type: 'replace_metadata', args: document }), 200, { message: 'success' });
      const gone = socket.start('subscription { churn_item { note } }');
      const stays = socket.start('subscription { stays { id } }');
      expect(await gone.take()).toEqual({ type: 'next', payload: { data: { churn_item: [{ note: 'kept' }] } } });
      expect(await stays.take()).toEqual({ type: 'next', payload: { data: { stays: [{ id: 1 }] } } });
      expectResponse(await target.metadata({ type: 'pg_drop_source', args: { name: 'churned', cascade: true } }), 200, { message: 'success' });
      // Checked again against the new schema, where its field is no more.
      expect(await gone.take(10_000)).toEqual({
        type: 'next',
        payload: {
          errors: [{ message: 'Cannot query field "churn_item" on type "subscription_root".', extensions: { path: '$', code: 'validation-failed' } }],
        },
      });
      await target.sql('insert into public.stays values (2)');
      expect(await stays.take(10_000)).toEqual({ type: 'next', payload: { data: { stays: [{ id: 1 }, { id: 2 }] } } });
    } finally {
      await socket.close();
      await target.sql('drop table if exists public.stays');
    }
  },
);
