import { stopRunCluster } from './postgisRun';
import { stopSharedServers } from './serverPool';

export default async function globalTeardown(): Promise<void> {
  const shared = globalThis.__engineTestServers;
  globalThis.__engineTestServers = undefined;
  if (shared) await stopSharedServers(shared.cluster, shared.servers);
  await stopRunCluster();
  await globalThis.__engineTestCluster?.stop();
  globalThis.__engineTestCluster = undefined;
}
