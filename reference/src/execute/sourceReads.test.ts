import { DatabaseError } from 'pg';
import { ConnectionLost, databaseErrorAnswer, SourceRemoved } from './answers';
import { onSource } from './sourceReads';

/** Pools handed out by name, each recording whether it was given back. */
function poolsOf(names: Record<string, { unreachable?: boolean }>) {
  const handed: { name: string; released: number }[] = [];
  return {
    handed,
    sourcePools: (source: string, write: boolean) => {
      const known = names[source];
      if (!known) throw new SourceRemoved(source);
      const entry = { name: write ? 'primary' : 'replica', released: 0 };
      handed.push(entry);
      return { name: entry.name, release: () => void entry.released++, ...(known.unreachable && !write ? { unreachable: () => {} } : {}) };
    },
  };
}

describe('onSource [dec.source.in-flight]', () => {
  test("the source's pools are given back once the work is done, and once it failed", async () => {
    const pools = poolsOf({ churned: {} });
    expect(await onSource(pools, 'churned', true, async (where) => `ran on ${where.name}`)).toBe('ran on primary');
    await expect(onSource(pools, 'churned', true, () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(pools.handed).toEqual([
      { name: 'primary', released: 1 },
      { name: 'primary', released: 1 },
    ]);
  });

  test('a read a replica could not serve runs on the primary, and both are given back', async () => {
    const pools = poolsOf({ churned: { unreachable: true } });
    const answer = await onSource(pools, 'churned', false, async (where) => {
      if (where.name === 'replica') throw new ConnectionLost();
      return `ran on ${where.name}`;
    });
    expect(answer).toBe('ran on primary');
    expect(pools.handed).toEqual([
      { name: 'replica', released: 1 },
      { name: 'primary', released: 1 },
    ]);
  });

  test('a source gone from the metadata is answered 200 not-exists, nothing run [err.graphql.source-removed]', async () => {
    let ran = false;
    const refusal = await onSource(poolsOf({}), 'churned', true, async () => ((ran = true), '')).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(SourceRemoved);
    expect(ran).toBe(false);
    expect(databaseErrorAnswer(refusal)).toEqual({
      status: 200,
      body: '{"errors":[{"message":"the source \\"churned\\" was removed while the request ran","extensions":{"path":"$","code":"not-exists"}}]}',
    });
  });

  const refusal = (code: string) => Object.assign(new DatabaseError('refused', 0, 'error'), { code });

  test.each([
    ['a write', true, new ConnectionLost(), ['primary']],
    ['a statement the replica refused (42P01)', false, refusal('42P01'), ['replica']],
    ['an internal error of the replica (XX000)', false, refusal('XX000'), ['replica']],
    ['a statement refusal whose code holds 08 past its class (42808)', false, refusal('42808'), ['replica']],
    ['a failure that is no DatabaseError', false, new Error('08006'), ['replica']],
  ])('%s that failed is not sent to the primary again', async (_title, write, error, tried) => {
    const pools = poolsOf({ churned: { unreachable: true } });
    await expect(onSource(pools, 'churned', write, () => Promise.reject(error))).rejects.toBe(error);
    expect(pools.handed.map((h) => h.name)).toEqual(tried);
  });

  test.each(['08006', '28P01', '3D000', '57P01', '53300'])('a replica that refused the session (%s) leaves the read to the primary', async (code) => {
    const pools = poolsOf({ churned: { unreachable: true } });
    expect(await onSource(pools, 'churned', false, async (where) => (where.name === 'replica' ? Promise.reject(refusal(code)) : 'primary'))).toBe('primary');
  });

  test('a replica without a way to be left aside, or no primary to fall back on: the failure stands', async () => {
    const lost = new ConnectionLost();
    const noAside = poolsOf({ churned: {} });
    await expect(onSource(noAside, 'churned', false, () => Promise.reject(lost))).rejects.toBe(lost);
    let asked = 0;
    const noPrimary = {
      sourcePools: (_source: string, write: boolean) => (asked++, write ? undefined : { unreachable: () => {}, release: () => {} }),
    };
    await expect(onSource(noPrimary, 'churned', false, () => Promise.reject(lost))).rejects.toBe(lost);
    expect(asked).toBe(2);
  });

  test('no pools for the source, or none at all: connection error', async () => {
    await expect(onSource({ sourcePools: () => undefined }, 'churned', true, async () => 'ran')).rejects.toBeInstanceOf(ConnectionLost);
    await expect(onSource({}, 'churned', true, async () => 'ran')).rejects.toBeInstanceOf(ConnectionLost);
  });
});
