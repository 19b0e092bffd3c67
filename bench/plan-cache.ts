// How PostgreSQL's plan cache treats the reference's statements for the bench queries: each one
// prepared on one connection and run 1,500 times in a row under each `plan_cache_mode`, two
// rounds; the backend's CPU per execution (from /proc) and the generic and custom plans it made.
// `node scripts/run-ts.js bench/plan-cache.ts`
import { Client } from 'pg';
import { fixtureSql } from '../conformance/harness/fixtures';
import { loadConfig } from '../reference/src/config';
import { freePort, provisionDatabase } from '../reference/src/db/provision';
import { Engine } from '../reference/src/engine/engine';
import { prepareGraphQLRequest } from '../reference/src/execute/graphql';
import { cpuSeconds } from './cpu';
import { startReference, stop, waitFor } from './processes';
import { CASES, trackBenchTables } from './query-speed';

const RUNS = 1500;

async function main(): Promise<void> {
  const database = await provisionDatabase({});
  const client = new Client({ connectionString: database.url });
  await client.connect();
  await client.query(fixtureSql('bench'));
  await client.query('vacuum (analyze) bench.artist, bench.album, bench.track');
  const port = await freePort();
  const server = startReference(database.url, port);
  try {
    await waitFor(`http://127.0.0.1:${port}/healthz`);
    await trackBenchTables(`http://127.0.0.1:${port}`);
    const engine = await Engine.open(loadConfig({ ENGINE_GRAPHQL_LOG_LEVEL: 'silent' }), database.url);
    const backend = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    for (const [i, c] of CASES.entries()) {
      const prepared = prepareGraphQLRequest(engine.graphql(), { role: 'admin', variables: {} }, { query: c.reference });
      if (!('plan' in prepared)) throw new Error(prepared.answer.body);
      const { text, values } = prepared.plan.statements[0]!;
      for (const mode of ['auto', 'force_generic_plan', 'force_custom_plan', 'auto', 'force_generic_plan', 'force_custom_plan']) {
        const name = `case${i}_${mode}`;
        await client.query(`set plan_cache_mode = ${mode}`);
        for (let k = 0; k < 50; k++) await client.query({ name, text, values });
        const before = cpuSeconds(backend);
        for (let k = 0; k < RUNS; k++) await client.query({ name, text, values });
        const us = ((cpuSeconds(backend) - before) * 1e6) / RUNS;
        const plans = (await client.query('select generic_plans, custom_plans from pg_prepared_statements where name = $1', [name])).rows[0] as Record<
          string,
          string
        >;
        await client.query(`deallocate ${name}`);
        // node-postgres remembers what it prepared: forget it with the statement.
        delete (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements[name];
        process.stdout.write(
          `${c.name}, ${mode}: backend ${Math.round(us)} µs an execution, generic plans ${plans.generic_plans}, custom plans ${plans.custom_plans}\n`,
        );
      }
    }
    await engine.close();
  } finally {
    await client.end();
    await stop(server);
    await database.stop();
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
