// Run by otherCluster.ts in a process of its own (initdb needs the ES module that jest's module
// loader cannot load): starts an embedded PostgreSQL with the settings given as JSON in
// ENGINE_CLUSTER_SETTINGS, writes its URL as one JSON line, and stops it when its input closes.
import { provisionDatabase } from '../../reference/src/db/provision';
import { clusterScratchDirectory } from './scratchDirectory';

const settings = JSON.parse(process.env.ENGINE_CLUSTER_SETTINGS ?? '{}') as Record<string, string>;

provisionDatabase({ settings, scratchDir: clusterScratchDirectory() }).then(
  (cluster) => {
    process.stdout.write(`${JSON.stringify({ url: cluster.url })}\n`);
    const stop = () => void cluster.stop().finally(() => process.exit(0));
    process.stdin.once('end', stop);
    process.stdin.resume();
    process.once('SIGTERM', stop);
  },
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
