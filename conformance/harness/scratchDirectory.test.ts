// Where a run's clusters live: as given, else the memory-backed directory when it can hold them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clusterScratchDirectory } from './scratchDirectory';

test('ENGINE_TEST_SCRATCH_DIR is where the clusters go, whatever the machine has', () => {
  expect(clusterScratchDirectory({ ENGINE_TEST_SCRATCH_DIR: '/var/tmp/mine' }, '/dev/shm')).toBe('/var/tmp/mine');
});

test('a memory-backed directory that is missing or read-only is passed over for the temporary one', () => {
  expect(clusterScratchDirectory({}, '/no/such/directory')).toBe(tmpdir());
  // /proc holds no free blocks.
  expect(clusterScratchDirectory({}, '/proc')).toBe(tmpdir());
});

test('a writable directory with room is taken', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scratch-'));
  try {
    // The temporary directory of this machine has more than the least room a run needs (checked, not assumed).
    expect(clusterScratchDirectory({}, dir)).toBe(dir);
  } finally {
    rmSync(dir, { recursive: true });
  }
});
