// For the crash tests only: ENGINE_TEST_PAUSE_AT names a point between the phases of a commit over
// several databases (`prepared`: before the server's own COMMIT; `committed`: after it, before the
// prepared transactions are committed) where the request stops for good, said on stderr, so that
// the test can kill the process there. Unset, as it always is outside those tests, it does nothing.
export type PausePoint = 'prepared' | 'committed';

export async function pauseForTest(point: PausePoint): Promise<void> {
  if (process.env.ENGINE_TEST_PAUSE_AT !== point) return;
  process.stderr.write(`paused for a test at ${point}\n`);
  await new Promise<never>(() => {});
}
