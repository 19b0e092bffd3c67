// For the tests of `engine-reference metadata …`: a server on a database of its own (made fresh
// for each test or once for the file), its metadata API, and the command run against it.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { createDatabase, dropDatabase } from '../../conformance/harness/database';
import { CLUSTER_URL_VARIABLE } from '../../conformance/harness/environment';
import { Client } from 'pg';
import { metadataCommand } from '../src/cli/metadata';
import { migrateCommand } from '../src/cli/migrate';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/log';
import { startServer, type RunningServer } from '../src/server';

const SECRET = 'cli-secret';

export interface MetadataCliHarness {
  /** The running server's address. */
  readonly url: string;
  /** A temporary directory of the test, removed afterwards. */
  readonly dir: string;
  /** A metadata request (or /v2/query's run_sql) with the admin secret. */
  post(body: unknown, endpoint?: string): Promise<{ status: number; body: unknown }>;
  /** `engine-reference metadata …argv` against the server: its exit code and its lines. */
  cli(...argv: string[]): Promise<{ code: number; out: string; err: string }>;
  /** `engine-reference migrate …argv` against the server. */
  migrate(...argv: string[]): Promise<{ code: number; out: string; err: string }>;
  /** The rows of a query on the server's database, read directly. */
  query(text: string): Promise<Record<string, unknown>[]>;
  /** export_metadata's answer. */
  exported(): Promise<unknown>;
}

export function useMetadataCli(scope: 'each' | 'all'): MetadataCliHarness {
  const config = loadConfig({ ENGINE_GRAPHQL_SERVER_PORT: '0', ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1', ENGINE_GRAPHQL_ADMIN_SECRET: SECRET });
  let database: { name: string; url: string } | undefined;
  let server: RunningServer | undefined;
  let dir = '';
  const post = async (body: unknown, endpoint = '/v1/metadata') => {
    const r = await fetch(server!.url + endpoint, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'x-engine-admin-secret': SECRET, 'content-type': 'application/json' },
    });
    return { status: r.status, body: (await r.json()) as unknown };
  };
  type Command = (argv: readonly string[], env: NodeJS.ProcessEnv, io: { out(l: string): void; err(l: string): void }) => Promise<number>;
  const run = async (command: Command, argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await command([...argv, '--endpoint', server!.url, '--admin-secret', SECRET], {}, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  (scope === 'each' ? beforeEach : beforeAll)(async () => {
    database = await createDatabase(process.env[CLUSTER_URL_VARIABLE]!);
    server = await startServer(config, database.url, createLogger('silent'));
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-metadata-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  (scope === 'each' ? afterEach : afterAll)(async () => {
    await server?.close();
    if (database) await dropDatabase(process.env[CLUSTER_URL_VARIABLE]!, database.name);
  });
  return {
    get url() {
      return server!.url;
    },
    get dir() {
      return dir;
    },
    post,
    cli: (...argv: string[]) => run(metadataCommand, argv),
    migrate: (...argv: string[]) => run(migrateCommand, argv),
    async query(text: string) {
      const client = new Client({ connectionString: database!.url });
      await client.connect();
      try {
        return (await client.query(text)).rows as Record<string, unknown>[];
      } finally {
        await client.end();
      }
    },
    async exported() {
      const answer = await post({ type: 'export_metadata', args: {} });
      if (answer.status !== 200) throw new Error(`export_metadata answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body;
    },
  };
}

/** The CLI's version 3 project of fixtures/: its metadata/ directory and the SQL its tables and function need (its migrations' up.sql, in order). */
export const CLI_V3_PROJECT = join(__dirname, '..', '..', 'fixtures', 'projects', 'cli-v3');
export const cliV3Sql = () => {
  const migrations = join(CLI_V3_PROJECT, 'migrations', 'default');
  return readdirSync(migrations)
    .sort()
    .map((folder) => readFileSync(join(migrations, folder, 'up.sql'), 'utf8'))
    .join('\n');
};

/** Every file under `dir` and its text, by relative path: to compare a directory with another. */
export function treeOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const path of (readdirSync(dir, { recursive: true }) as string[]).sort()) {
    const full = join(dir, path);
    if (statSync(full).isFile()) out[path.split(sep).join('/')] = readFileSync(full, 'utf8');
  }
  return out;
}
