// The run's own PostgreSQL cluster (globalSetup.ts): made where logins and new files cost least.
import { Client } from 'pg';
import { CLUSTER_URL_VARIABLE, OWN_CLUSTER_VARIABLE } from './environment';
import { clusterScratchDirectory } from './scratchDirectory';

const own = process.env[OWN_CLUSTER_VARIABLE] === '1';

const TITLE = 'the run made its cluster in the scratch directory, its password stored with one iteration of SCRAM';
// A cluster given by URL is not the run's to make: the case is reported as not run, saying why.
(own ? test : test.skip)(own ? TITLE : `${TITLE} (not run: the cluster was given by URL)`, async () => {
  const client = new Client({ connectionString: process.env[CLUSTER_URL_VARIABLE] });
  await client.connect();
  try {
    const { rows } = await client.query<{ directory: string; verifier: string }>(
      "select current_setting('data_directory') as directory, (select rolpassword from pg_authid where rolname = current_user) as verifier",
    );
    expect(rows[0]!.directory.startsWith(`${clusterScratchDirectory()}/engine-pg-`)).toBe(true);
    expect(rows[0]!.verifier).toMatch(/^SCRAM-SHA-256\$1:/);
  } finally {
    await client.end();
  }
});
