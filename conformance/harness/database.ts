// A database of its own for each test file, in the cluster of a managed run.
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import * as sql from 'pg-sql2';
import { CLUSTER_URL_VARIABLE, OWN_CLUSTER_VARIABLE } from './environment';

/** `work` on a connection of its own to the database at `url`, closed after it. */
export async function onCluster<T>(url: string, work: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createDatabase(clusterUrl: string): Promise<{ name: string; url: string }> {
  const name = `conformance_${process.pid}_${randomBytes(4).toString('hex')}`;
  const copy = process.env[OWN_CLUSTER_VARIABLE] === '1' ? sql.fragment` strategy file_copy` : sql.blank;
  await onCluster(clusterUrl, (c) => c.query(sql.compile(sql.query`create database ${sql.identifier(name)}${copy}`)));
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

export async function dropDatabase(clusterUrl: string, name: string): Promise<void> {
  await onCluster(clusterUrl, (c) => c.query(sql.compile(sql.query`drop database if exists ${sql.identifier(name)} with (force)`)));
}

/**
 * For tests of the server's own parts: a database in the run's cluster with a connected client,
 * made fresh for each test (`each`) or once for the file (`all`), dropped afterwards.
 */
export function useDatabase(scope: 'each' | 'all'): { readonly client: Client; readonly url: string } {
  let database: { name: string; url: string } | undefined;
  let client: Client | undefined;
  const cluster = () => process.env[CLUSTER_URL_VARIABLE]!;
  (scope === 'each' ? beforeEach : beforeAll)(async () => {
    database = await createDatabase(cluster());
    client = new Client({ connectionString: database.url });
    await client.connect();
  });
  (scope === 'each' ? afterEach : afterAll)(async () => {
    await client?.end();
    if (database) await dropDatabase(cluster(), database.name);
  });
  return {
    get client() {
      return client!;
    },
    get url() {
      return database!.url;
    },
  };
}
