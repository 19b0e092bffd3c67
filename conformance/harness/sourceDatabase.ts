// Databases for the sources cases (decision dec.source.forms): in a managed run, fresh databases in
// the run's cluster; against another engine, the one given as ENGINE_SOURCE_DATABASE_URL (a
// database both the suite and the target reach, left as the suite found it: its cases drop what
// they create).
import { Client } from 'pg';
import { createDatabase, dropDatabase } from './database';
import { CLUSTER_URL_VARIABLE } from './environment';
import { isManaged, type Requirement } from './target';

export const REQUIRES_SOURCE_DATABASE: Requirement = {
  met: isManaged || process.env.ENGINE_SOURCE_DATABASE_URL !== undefined,
  needs: 'a second database the target can reach, given as ENGINE_SOURCE_DATABASE_URL',
};

/** Whether this run can make and drop databases of its own (a managed run). */
export const makesDatabases = isManaged;

export interface SourceDatabase {
  readonly url: string;
  sql(text: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
}

/** A database for the file's cases, made before them and dropped after them. */
export function useSourceDatabase(): SourceDatabase {
  let made: { name: string; url: string } | undefined;
  let url = process.env.ENGINE_SOURCE_DATABASE_URL ?? '';
  let client: Client | undefined;
  beforeAll(async () => {
    if (!REQUIRES_SOURCE_DATABASE.met) return;
    if (isManaged) ({ url } = made = await createDatabase(process.env[CLUSTER_URL_VARIABLE]!));
    client = new Client({ connectionString: url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    if (made) await dropDatabase(process.env[CLUSTER_URL_VARIABLE]!, made.name);
  });
  return {
    get url() {
      return url;
    },
    async sql(text, values) {
      return (await client!.query(text, values)).rows;
    },
  };
}

/** In a managed run: a database made now, and a function that drops it (its connections ended). */
export async function makeDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const cluster = process.env[CLUSTER_URL_VARIABLE]!;
  const made = await createDatabase(cluster);
  return { url: made.url, drop: () => dropDatabase(cluster, made.name) };
}
