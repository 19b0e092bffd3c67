import { PoolLeases } from './poolLeases';

describe('PoolLeases [dec.source.in-flight]', () => {
  const pool = () => ({ ended: 0 });
  const ender = (p: { ended: number }) => async () => void p.ended++;

  test('a retired pool no one holds is ended at once', () => {
    const leases = new PoolLeases<{ ended: number }>();
    const p = pool();
    leases.retire(p, ender(p));
    expect(p.ended).toBe(1);
    expect(leases.waiting).toBe(0);
  });

  test('a retired pool is ended when its last lease is given back, once, and a lease given back twice counts once', () => {
    const leases = new PoolLeases<{ ended: number }>();
    const p = pool();
    const first = leases.take(p);
    const second = leases.take(p);
    leases.retire(p, ender(p));
    expect([p.ended, leases.waiting]).toEqual([0, 1]);
    first();
    first();
    expect([p.ended, leases.waiting]).toEqual([0, 1]);
    second();
    expect([p.ended, leases.waiting]).toEqual([1, 0]);
    second();
    expect(p.ended).toBe(1);
  });

  test('a pool given back before it is retired is not ended until retired', () => {
    const leases = new PoolLeases<{ ended: number }>();
    const p = pool();
    leases.take(p)();
    expect(p.ended).toBe(0);
    leases.retire(p, ender(p));
    expect(p.ended).toBe(1);
  });

  test('endAll ends the retired pools still held and waits for every end, a failed end included', async () => {
    const leases = new PoolLeases<{ ended: number }>();
    const [held, failing] = [pool(), pool()];
    leases.take(held);
    leases.retire(held, ender(held));
    let finished = false;
    leases.retire(failing, () => new Promise<void>((_, reject) => setTimeout(() => ((finished = true), reject(new Error('refused'))), 20)));
    await leases.endAll();
    expect([held.ended, finished, leases.waiting]).toEqual([1, true, 0]);
  });
});
