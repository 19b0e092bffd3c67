// Fair shares of the connections (decision dec.limits.role-share): however many roles send slow
// queries, another role is answered before any of them, and credentials that allow several roles
// (a JWT's allowed roles) take one share whichever role they use. Order of answers, not time, is
// what the cases assert: the quick query must be answered first.
import { caseWithProfile, covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql, musicTable } from '../harness/fixtures';
import { engineClaims, signToken } from '../harness/jwt';
import { useTarget, type Target } from '../harness/target';

const target = useTarget({ profiles: ['jwt-hs256'] });
const NS = 'https://engine.example/claims';
const SLOW = '{ music_slow_fair { id } }';
const QUICK = '{ music_artist_by_pk(id: 1) { id } }';

async function setUp(t: Target): Promise<void> {
  await t.sql(fixtureSql('music'));
  await t.sql('create or replace view music.slow_fair as select 1 as id, pg_sleep(1)::text as slept');
  const permissions = ['busy_a', 'busy_b', 'quick'].flatMap((role) =>
    ['slow_fair', 'artist'].map((table) => ({
      type: 'create_select_permission',
      args: { table: musicTable(table), role, permission: { columns: ['id'], filter: {} } },
    })),
  );
  const r = await t.metadata({
    type: 'bulk',
    args: [
      { type: 'reload_metadata', args: {} },
      { type: 'clear_metadata', args: {} },
      { type: 'track_table', args: { table: musicTable('slow_fair') } },
      { type: 'track_table', args: { table: musicTable('artist') } },
      ...permissions,
    ],
  });
  if (r.status !== 200) throw new Error(r.text);
}

/** Sends the slow queries with `headersOf(i)`, then the quick one; what finished in which order. */
async function race(t: Target, slow: number, headersOf: (i: number) => Record<string, string>, quickHeaders: Record<string, string>) {
  const finished: string[] = [];
  const slowOnes = Array.from({ length: slow }, (_, i) =>
    t.graphql(SLOW, undefined, { headers: headersOf(i) }).then((r) => {
      finished.push('slow');
      return r;
    }),
  );
  // The slow ones take their places first.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const quick = await t.graphql(QUICK, undefined, { headers: quickHeaders });
  finished.push('quick');
  expectResponse(quick, 200, { data: { music_artist_by_pk: { id: 1 } } });
  for (const r of await Promise.all(slowOnes)) expectResponse(r, 200, { data: { music_slow_fair: [{ id: 1 }] } });
  return finished;
}

test(
  covers(['dec.limits.role-share'], 'two roles that fill the pool with slow queries leave a place for a third: it is answered before any of them'),
  async () => {
    await setUp(target);
    const as = (role: string) => ({ ...target.adminHeaders(), 'x-engine-role': role });
    const finished = await race(target, 24, (i) => as(i % 2 === 0 ? 'busy_a' : 'busy_b'), as('quick'));
    expect(finished[0]).toBe('quick');
  },
  60_000,
);

caseWithProfile(
  'jwt-hs256',
  ['dec.limits.role-share'],
  'one token that may use two roles takes one share: another role is answered before its slow queries',
  async () => {
    const t = target.profileTarget('jwt-hs256')!;
    await setUp(t);
    const both = await signToken({ [NS]: engineClaims('busy_a', ['busy_a', 'busy_b']) });
    const quick = await signToken({ [NS]: engineClaims('quick', ['quick']) });
    const finished = await race(t, 24, (i) => ({ authorization: `Bearer ${both}`, 'x-engine-role': i % 2 === 0 ? 'busy_a' : 'busy_b' }), {
      authorization: `Bearer ${quick}`,
    });
    expect(finished[0]).toBe('quick');
  },
  60_000,
);
