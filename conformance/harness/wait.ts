// Waiting for something the target does on its own time (a webhook called, a row settled). A wait
// ends on a condition, never after a fixed sleep; its deadline is generous and scaled to the
// machine: a loaded machine (other test runs on the same cores) runs the target, the webhooks and
// the suite slower alike, and a case must not take that for a failure.
import { availableParallelism, loadavg } from 'node:os';

/** The most a deadline is stretched by the machine's load. */
const MOST_BY_LOAD = 8;

/**
 * How much longer than written the deadlines of this run are: ENGINE_TEST_TIME_SCALE when set
 * (a slow machine, a target far away), otherwise the load of this machine per core when it is
 * above one (read once, as the run starts), at most eight times.
 */
export function timeScale(env: NodeJS.ProcessEnv = process.env, load = loadavg()[0]!, cores = availableParallelism()): number {
  const given = Number(env.ENGINE_TEST_TIME_SCALE);
  if (env.ENGINE_TEST_TIME_SCALE !== undefined && Number.isFinite(given) && given > 0) return given;
  return Math.min(MOST_BY_LOAD, Math.max(1, load / Math.max(1, cores)));
}

const SCALE = timeScale();

/** A deadline of `ms` as written in a case, stretched for this run (timeScale). */
export const scaled = (ms: number): number => Math.round(ms * SCALE);

/** Probe until `done` holds or `timeoutMs` (scaled) passes; the last value either way (the case asserts on it). */
export async function until<T>(probe: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 15_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + scaled(timeoutMs);
  for (;;) {
    const v = await probe();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
