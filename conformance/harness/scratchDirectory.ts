// Where a test run keeps its PostgreSQL clusters. A run makes and drops more than a hundred
// databases of about a thousand files each; on a disk's file system (ext4 measured) making a file
// soon after so many were deleted costs the kernel more CPU than PostgreSQL spends on the whole
// run's queries. A memory-backed directory (/dev/shm) has no such cost, and a test cluster never
// needs to outlive the run.
import { accessSync, constants, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';

/** A run's clusters need a few hundred megabytes at most: a memory-backed directory with less free is passed over. */
const LEAST_FREE_BYTES = 2 * 1024 ** 3;
const MEMORY_BACKED = '/dev/shm';

/** ENGINE_TEST_SCRATCH_DIR when given; else /dev/shm when writable with room; else the system's temporary directory. */
export function clusterScratchDirectory(env: NodeJS.ProcessEnv = process.env, memoryBacked = MEMORY_BACKED): string {
  if (env.ENGINE_TEST_SCRATCH_DIR) return env.ENGINE_TEST_SCRATCH_DIR;
  try {
    accessSync(memoryBacked, constants.W_OK);
    const { bavail, bsize } = statfsSync(memoryBacked);
    if (bavail * bsize >= LEAST_FREE_BYTES) return memoryBacked;
  } catch {
    // No such directory, or not ours to write: the temporary directory.
  }
  return tmpdir();
}
