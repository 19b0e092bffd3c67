export default async function globalTeardown(): Promise<void> {
  await globalThis.__engineTestCluster?.stop();
  globalThis.__engineTestCluster = undefined;
}
