// Golden files of the SQL the GraphQL compiler writes: each `golden/<name>.graphql` (with `# role:`,
// `# session:`, `# variables:` and `# cohort: true` header lines where needed) sits beside `<name>.sql`, the statements
// it compiles to with their bound values, and, for queries, `<name>.json`, what they answer on the
// music fixture. A change to the compiler shows up as a diff of these files.
// ENGINE_UPDATE_GOLDEN=1 rewrites them; review the diff before committing it.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDatabase, dropDatabase } from '../../../../conformance/harness/database';
import { CLUSTER_URL_VARIABLE } from '../../../../conformance/harness/environment';
import { fixtureSql, musicMetadata, musicTable } from '../../../../conformance/harness/fixtures';
import type { Session } from '../../auth/session';
import { loadConfig } from '../../config';
import { prepareGraphQLRequest } from '../../execute/graphql';
import { runPlan } from '../../execute/runPlan';
import type { PlanStatement } from '../../execute/plan';
import type { CompiledPlan } from '../../execute/schemaCache';
import { createLogger } from '../../log';
import { startServer, type RunningServer } from '../../server';

const DIRECTORY = join(__dirname, 'golden');
const UPDATE = process.env.ENGINE_UPDATE_GOLDEN === '1';
const cases = readdirSync(DIRECTORY)
  .filter((f) => f.endsWith('.graphql'))
  .map((f) => f.slice(0, -'.graphql'.length))
  .sort();

const cluster = () => process.env[CLUSTER_URL_VARIABLE]!;
let database: { name: string; url: string };
let server: RunningServer;

beforeAll(async () => {
  database = await createDatabase(cluster());
  server = await startServer(loadConfig({ ENGINE_GRAPHQL_SERVER_PORT: '0', ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1' }), database.url, createLogger('silent'));
  const post = async (body: unknown, endpoint = '/v1/metadata') => {
    const r = await fetch(server.url + endpoint, { method: 'POST', body: JSON.stringify(body), headers: { 'x-engine-role': 'admin' } });
    if (r.status !== 200) throw new Error(`${endpoint}: ${r.status} ${await r.text()}`);
  };
  await post({ type: 'run_sql', args: { sql: fixtureSql('music') } }, '/v2/query');
  const metadata = musicMetadata(['genre', 'artist', 'album', 'track'], ['album.artist', 'artist.albums', 'album.tracks', 'track.album']);
  metadata.args.push(
    {
      type: 'create_select_permission',
      args: {
        table: musicTable('artist'),
        role: 'listener',
        permission: { columns: ['id', 'name'], filter: { country: { _eq: 'X-Engine-Country' } }, limit: 5 },
      },
    },
    {
      type: 'create_select_permission',
      args: { table: musicTable('album'), role: 'listener', permission: { columns: ['id', 'title'], filter: {}, allow_aggregations: true } },
    },
  );
  await post(metadata);
});
afterAll(async () => {
  await server?.close();
  await dropDatabase(cluster(), database.name);
});

/** The `# key: value` header lines of a case. */
function header(source: string): { session: Session; variables?: Record<string, unknown>; cohort: boolean } {
  const value = (key: string) => new RegExp(`^# ${key}: (.*)$`, 'm').exec(source)?.[1];
  const role = value('role') ?? 'admin';
  const variables = value('variables');
  return {
    session: { role, variables: JSON.parse(value('session') ?? '{}') as Record<string, string> },
    ...(variables ? { variables: JSON.parse(variables) as Record<string, unknown> } : {}),
    cohort: value('cohort') === 'true',
  };
}

function sqlFile(plan: CompiledPlan): string {
  const heading = (s: PlanStatement) => (s.alias ? `-- ${s.alias}${s.part ? ` (${s.part === 'element' ? 'one element' : 'a step'})` : ''}\n` : '');
  // What a statement reads of the earlier ones' answers, and the refusal of a step that inserts nothing.
  const after = (s: PlanStatement) =>
    `${s.reads ? `-- reads: ${JSON.stringify(s.reads)}\n` : ''}${s.refusedWhenEmpty ? `-- refused when empty: ${JSON.stringify(s.refusedWhenEmpty)}\n` : ''}`;
  return plan.statements.map((s) => `${heading(s)}${s.text};\n-- values: ${JSON.stringify(s.values)}\n${after(s)}`).join('\n');
}

function compare(path: string, actual: string): void {
  if (UPDATE) {
    writeFileSync(path, actual);
    return;
  }
  if (!existsSync(path)) throw new Error(`${path} is missing: run with ENGINE_UPDATE_GOLDEN=1 to write it, then review it`);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

test('there are golden cases', () => {
  expect(cases.length).toBeGreaterThanOrEqual(10);
});

test.each(cases)('%s', async (name) => {
  const source = readFileSync(join(DIRECTORY, `${name}.graphql`), 'utf8');
  const { session, variables, cohort } = header(source);
  const prepared = prepareGraphQLRequest(server.engine.graphql(), session, { query: source, ...(variables ? { variables } : {}) }, { cohort });
  if ('answer' in prepared) throw new Error(`${name} does not compile: ${prepared.answer.body}`);
  compare(join(DIRECTORY, `${name}.sql`), sqlFile(prepared.plan));
  if (prepared.plan.kind === 'query') {
    const answer = JSON.stringify(JSON.parse(await runPlan(server.engine.pools, prepared.plan)), null, 2) + '\n';
    compare(join(DIRECTORY, `${name}.json`), answer);
  }
});
