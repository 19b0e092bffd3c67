// The settings of a conformance run, from the environment (the CLI sets them from its flags).

export interface TargetSettings {
  /** Base URL of the engine under test; absent: each test file starts the reference itself. */
  url?: string;
  adminSecret?: string;
  /** The target's database, for fixtures and for checking what the target did. */
  databaseUrl?: string;
  /** Targets configured differently, for the cases that need them (ENGINE_URL_<PROFILE>). */
  profileUrls: Record<string, string>;
}

export function targetSettings(env: NodeJS.ProcessEnv = process.env): TargetSettings {
  const profileUrls: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    const m = /^ENGINE_URL_([A-Z0-9_]+)$/.exec(key);
    if (m && value) profileUrls[m[1]!.toLowerCase().replace(/_/g, '-')] = value;
  }
  return {
    ...(env.ENGINE_URL ? { url: env.ENGINE_URL.replace(/\/+$/, '') } : {}),
    ...(env.ENGINE_ADMIN_SECRET ? { adminSecret: env.ENGINE_ADMIN_SECRET } : {}),
    ...(env.ENGINE_DATABASE_URL ? { databaseUrl: env.ENGINE_DATABASE_URL } : {}),
    profileUrls,
  };
}

/** Where the PostgreSQL cluster started by the global setup is (managed runs only). */
export const CLUSTER_URL_VARIABLE = 'ENGINE_TEST_CLUSTER_URL';

/**
 * Set when the cluster is the run's own (started by the global setup, not given): its databases are
 * made by copying the template's files, which costs a fraction of writing them through the WAL with
 * fsync off, but takes checkpoints that a shared cluster should not pay for.
 */
export const OWN_CLUSTER_VARIABLE = 'ENGINE_TEST_OWN_CLUSTER';
