// Before the suite runs: reach the target, read its configuration (/v1alpha1/config) and check the
// admin credentials and the database once — that it answers, and that it is the one the target
// serves — so that a wrong URL, secret or database is one clear line instead of every case failing alike.
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { CliOptions } from './arguments';
import { branded } from '../harness/brand';

/** What probing a target needs to know; `flags`: the flags that gave the secret and the database, named in refusals (diff's second target has its own). */
export type ProbeOptions = Pick<CliOptions, 'target' | 'adminSecret' | 'database'> &
  Partial<Pick<CliOptions, 'brand'>> & { flags?: { adminSecret: string; database: string } };

const flagsOf = (options: ProbeOptions) => options.flags ?? { adminSecret: '--admin-secret', database: '--database' };

/** The run cannot start: the CLI prints the message and exits with 2. */
export class ProbeError extends Error {}

export interface TargetProbe {
  /** The admin secret the run uses: the one given, unless the target has none. */
  adminSecret?: string;
  /** What the target's config API answered (absent when that API is disabled). */
  config?: Record<string, unknown>;
  /** Lines worth telling the user before the run. */
  notes: string[];
}

const TIMEOUT_MS = 10_000;

async function get(url: string, init: RequestInit): Promise<{ status: number; text: string }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new ProbeError(`cannot reach ${new URL(url).origin}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
  return { status: response.status, text: await response.text() };
}

function refused(options: ProbeOptions, status: number, text: string): ProbeError {
  const said = (() => {
    try {
      return String((JSON.parse(text) as { error?: unknown }).error ?? text);
    } catch {
      return text.slice(0, 200);
    }
  })();
  return new ProbeError(
    options.adminSecret === undefined
      ? `the target wants an admin secret (${status}: ${said}); give it with ${flagsOf(options).adminSecret}`
      : `the target refused the admin secret given with ${flagsOf(options).adminSecret} (${status}: ${said})`,
  );
}

export async function probeTarget(options: ProbeOptions): Promise<TargetProbe> {
  const admin: Record<string, string> = options.adminSecret !== undefined ? { 'x-engine-admin-secret': options.adminSecret } : { 'x-engine-role': 'admin' };
  const headers: Record<string, string> = branded(admin, options.brand ?? 'engine');
  const notes: string[] = [];
  const probe: TargetProbe = { ...(options.adminSecret !== undefined ? { adminSecret: options.adminSecret } : {}), notes };
  const config = await get(`${options.target}/v1alpha1/config`, { headers });
  if (config.status === 401 || config.status === 403) throw refused(options, config.status, config.text);
  if (config.status === 404) {
    // The config API is disabled: check the credentials on the metadata API instead.
    const exported = await get(`${options.target}/v1/metadata`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'export_metadata', args: {} }),
    });
    if (exported.status === 401 || exported.status === 403) throw refused(options, exported.status, exported.text);
    if (exported.status !== 200) throw new ProbeError(`the target answered export_metadata with ${exported.status}: ${exported.text.slice(0, 200)}`);
    notes.push("the target's config API is disabled: the cases are chosen by the flags alone");
  } else if (config.status !== 200) {
    throw new ProbeError(`the target answered GET /v1alpha1/config with ${config.status}: ${config.text.slice(0, 200)}`);
  } else {
    try {
      probe.config = JSON.parse(config.text) as Record<string, unknown>;
    } catch {
      throw new ProbeError(`the target's /v1alpha1/config is not JSON: ${config.text.slice(0, 200)}`);
    }
    if (probe.config.is_admin_secret_set === false && options.adminSecret !== undefined) {
      delete probe.adminSecret;
      notes.push(
        `the target has no admin secret (is_admin_secret_set: false): ${flagsOf(options).adminSecret} is not used, and the cases that need one are not run`,
      );
    }
    if (probe.config.is_admin_secret_set === false && options.adminSecret === undefined) {
      notes.push('the target has no admin secret: the cases that need one are not run, those of the no-admin-secret profile run against it');
    }
  }
  await checkDatabase(options.database, flagsOf(options).database);
  await checkServedDatabase(options, headers);
  return probe;
}

async function checkDatabase(url: string, flag: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: TIMEOUT_MS });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    // pg's messages name the host and the role, never the password.
    throw new ProbeError(`cannot use the database given with ${flag}: ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * `--database` must be the database the target serves, not just one that answers: otherwise every
 * case fails alike (its fixtures made where the target does not look). A marker schema is made
 * through the database, looked for through the target's run_sql, and dropped.
 */
async function checkServedDatabase(options: ProbeOptions, headers: Record<string, string>): Promise<void> {
  const flag = flagsOf(options).database;
  const marker = `engine_conformance_probe_${randomBytes(6).toString('hex')}`;
  const client = new Client({ connectionString: options.database, connectionTimeoutMillis: TIMEOUT_MS });
  await client.connect();
  try {
    try {
      await client.query(`create schema ${marker}`);
    } catch (error) {
      throw new ProbeError(`cannot make a schema in the database given with ${flag} (the cases make theirs): ${(error as Error).message}`);
    }
    const sql = `select count(*) from pg_namespace where nspname = '${marker}'`;
    const answer = await get(`${options.target}/v2/query`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'run_sql', args: { sql, read_only: true } }),
    });
    let seen: unknown;
    try {
      seen = (JSON.parse(answer.text) as { result?: unknown[][] }).result?.[1]?.[0];
    } catch {
      seen = undefined;
    }
    if (answer.status !== 200 || (seen !== '0' && seen !== '1')) {
      throw new ProbeError(
        `cannot check that the database given with ${flag} is the target's: its run_sql answered ${answer.status}: ${answer.text.slice(0, 200)}`,
      );
    }
    if (seen !== '1') {
      throw new ProbeError(
        `the database given with ${flag} is not the one the target serves: the schema ${marker} made in it is not seen through the target's run_sql; give ${flag} the URL of the target's own database`,
      );
    }
  } finally {
    await client.query(`drop schema if exists ${marker}`).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
