/** Probe until `done` holds or `timeoutMs` passes; the last value either way (the case asserts on it). */
export async function until<T>(probe: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 15_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
