// The steps of `migrate apply` run one by one, each as one bulk: run_sql of its up.sql (or down.sql)
// on the database, then set_catalog_state with its version recorded (or forgotten), so that a
// migration and its record commit together or not at all. The first that fails stops the rest;
// the ones before it stay, each committed.
import { schema } from '../../../spec';
import type { AdminApi } from './adminApi';
import { cliStateOf, withVersion } from './cliState';
import type { Step } from './migrationPlan';
import { MigrationsError } from './migrationsDirectory';

interface Output {
  out(line: string): void;
  err(line: string): void;
}

const plural = (n: number) => `${n} migration${n === 1 ? '' : 's'}`;

export async function applySteps(api: AdminApi, database: string, steps: readonly Step[], skipExecution: boolean, io: Output): Promise<number> {
  const done = (step: Step) =>
    skipExecution
      ? `recorded ${step.migration.folder} as ${step.direction === 'up' ? 'applied' : 'not applied'}, without running its ${step.direction}.sql`
      : `${step.direction === 'up' ? 'applied' : 'rolled back'} ${step.migration.folder}`;
  for (const [i, step] of steps.entries()) {
    const { migration, direction } = step;
    const sql = migration[direction]!;
    // Read again before each step: records another tool made meanwhile (another database's) stay.
    const current = await api.post('/v1/metadata', { type: 'get_catalog_state', args: {} });
    if (current.status !== 200) throw new MigrationsError(`the server refused get_catalog_state (${current.status}): ${JSON.stringify(current.body)}`);
    const state = withVersion(cliStateOf(current.body), database, migration.version, direction === 'up');
    const runs = !skipExecution && sql.trim() !== '';
    const answer = await api.post('/v1/query', {
      type: 'bulk',
      args: [...(runs ? [{ type: 'run_sql', args: { source: database, sql } }] : []), { type: 'set_catalog_state', args: { type: 'cli', state } }],
    });
    if (answer.status !== 200) {
      const what = runs && isFirstOfBulk(answer.body) ? `${direction}.sql failed` : 'recording it failed';
      io.err(`${migration.folder}: ${what}, so it is neither ${direction === 'up' ? 'applied' : 'rolled back'} nor recorded: ${reasonOf(answer)}`);
      const rest = steps.slice(i + 1).map((s) => s.migration.folder);
      io.err(
        `stopped after ${i} of ${plural(steps.length)} on database ${database}${i ? ' (each committed with its record)' : ''}${rest.length ? `; not run: ${rest.join(', ')}` : ''}`,
      );
      return 1;
    }
    io.out(done(step));
  }
  const verb = skipExecution
    ? steps[0]!.direction === 'up'
      ? 'recorded as applied'
      : 'recorded as not applied'
    : steps[0]!.direction === 'up'
      ? 'applied'
      : 'rolled back';
  io.out(`${plural(steps.length)} ${verb} on database ${database}`);
  return 0;
}

/** Whether the server's refusal points at the bulk's first member (the SQL), not at the record. */
function isFirstOfBulk(body: unknown): boolean {
  return schema.isPlainObject(body) && typeof body.path === 'string' && body.path.startsWith('$.args[0]');
}

/** PostgreSQL's error as the server passes it on (message, SQLSTATE, detail, hint), else the server's own. */
function reasonOf(answer: { status: number; body: unknown }): string {
  const body = schema.isPlainObject(answer.body) ? answer.body : {};
  const internal = schema.isPlainObject(body.internal) ? body.internal : {};
  const pg = schema.isPlainObject(internal.error) ? internal.error : undefined;
  if (pg && typeof pg.message === 'string') {
    const parts = [`${pg.message}${typeof pg.status_code === 'string' ? ` (SQLSTATE ${pg.status_code})` : ''}`];
    if (typeof pg.description === 'string') parts.push(`detail: ${pg.description}`);
    if (typeof pg.hint === 'string') parts.push(`hint: ${pg.hint}`);
    return parts.join('; ');
  }
  return typeof body.error === 'string' ? `${body.error} (${answer.status} ${String(body.code)})` : `${answer.status} ${JSON.stringify(answer.body)}`;
}
