// The connections of the server's own database (decision dec.metadata.default-source): the default
// source's pool_settings.max_connections, as replace_metadata gives it, bounds how many GraphQL
// statements run there at once; without it the server's own setting does. What runs is seen in
// pg_stat_activity while slow queries wait for each other.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { useTarget } from '../harness/target';

const target = useTarget();
const ok = { message: 'success' };
const tables = [{ table: { schema: 'public', name: 'slow_one' } }];
const replace = async (defaultSource: unknown) =>
  expectResponse(await target.metadata({ type: 'replace_metadata', args: { version: 2, tables, default_source: defaultSource } }), 200, ok);
const ownWithAtMost = (max: number) => ({
  configuration: { connection_info: { database_url: { from_env: 'ENGINE_GRAPHQL_DATABASE_URL' }, pool_settings: { max_connections: max } } },
});

/** The most slow_one statements seen running at once while six queries of it are answered. */
async function peakOfSix(): Promise<number> {
  let peak = 0;
  let done = false;
  const watch = (async () => {
    while (!done) {
      const [row] = await target.sql(
        "select count(*)::int as n from pg_stat_activity where state = 'active' and query like '%slow_one%' and pid <> pg_backend_pid()",
      );
      peak = Math.max(peak, row!.n as number);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
  })();
  const answers = await Promise.all(Array.from({ length: 6 }, () => target.graphql('{ slow_one { one } }')));
  done = true;
  await watch;
  for (const answer of answers) expect(answer.body).toEqual({ data: { slow_one: [{ one: 1 }] } });
  return peak;
}

beforeEach(async () => {
  await target.sql('drop view if exists slow_one; create view slow_one as select 1 as one from (select pg_sleep(0.4)) as slept');
});
afterEach(async () => {
  expectResponse(await target.metadata({ type: 'replace_metadata', args: { version: 2, tables: [], default_source: null } }), 200, ok);
  await target.sql('drop view if exists slow_one');
});

test(
  covers(
    ['dec.metadata.default-source', 'op.replace_metadata.v2'],
    "the default source's max_connections bounds the GraphQL statements running at once on the server's own database; without it they are not held to it",
  ),
  async () => {
    await replace(ownWithAtMost(2));
    expect(await peakOfSix()).toBe(2);
    await replace(null);
    expect(await peakOfSix()).toBeGreaterThan(2);
  },
  20_000,
);
