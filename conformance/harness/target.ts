// The engine a test file talks to. Against a given engine (ENGINE_URL) every file shares it and
// starts from clear_metadata; otherwise each file gets its jest worker's reference server (one per
// worker, each on its own database, sharedServer.ts) and starts from clear_metadata too, or, when it
// needs profiles, a fresh database in the run's cluster with its own servers; files run in parallel.
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { RunningServer } from '../../reference/src/server';
import { brandedText } from './brand';
import { httpRequest, type HttpResult, type RequestOptions } from './client';
import { CLUSTER_URL_VARIABLE, targetSettings } from './environment';
import type { AuthHook } from './authHook';
import type { JwksServer } from './jwks';
import { AUTH_HOOK_URL, JWKS_URL, PROFILES, type ProfileName } from './profiles';
import { createDatabase, dropDatabase } from './database';
import { registerSecret } from './secrets';
import { sharedServer } from './sharedServer';

export interface Target {
  readonly url: string;
  readonly adminSecret: string | undefined;
  readonly databaseUrl: string;
  /** Headers that make a request admin on this target. */
  adminHeaders(): Record<string, string>;
  request(method: string, path: string, options?: RequestOptions): Promise<HttpResult>;
  /** POST an envelope as admin to /v1/metadata (or another endpoint). */
  metadata(envelope: unknown, options?: { endpoint?: string; headers?: Record<string, string> }): Promise<HttpResult>;
  /** POST a GraphQL request to /v1/graphql as admin (or with the given headers instead). */
  graphql(query: string, variables?: Record<string, unknown>, options?: { headers?: Record<string, string>; operationName?: string }): Promise<HttpResult>;
  /** Run SQL straight on the target's database (fixtures, and checking what the target did). */
  sql(text: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Start from empty metadata. */
  reset(): Promise<void>;
}

interface TargetHandle extends Target {
  profileTarget(name: ProfileName): Target | undefined;
  /** The authentication webhook the hook profiles point at (started with them). */
  authHook(): AuthHook;
  /** The JWK set the jwt-jwk profile points at. */
  jwks(): JwksServer;
}

const settings = targetSettings();
export const isManaged = settings.url === undefined;
/** Whether the target has an admin secret (the reference the suite starts always has one); known before the cases run. */
export const targetHasAdminSecret = isManaged || settings.adminSecret !== undefined;

/**
 * The profile a target given without an admin secret already is: its cases run against the main
 * target when no URL of their own is given.
 */
const mainTargetProfile: ProfileName | undefined = !isManaged && settings.adminSecret === undefined ? 'no-admin-secret' : undefined;

/** Whether cases needing this profile can run in this run. */
export const profileAvailable = (name: ProfileName) => isManaged || name in settings.profileUrls || name === mainTargetProfile;

/** What a case needs of the target beyond a profile, and whether this run has it. */
export interface Requirement {
  readonly met: boolean;
  /** Said in the report of a case not run: "not run: needs …". */
  readonly needs: string;
}

export const REQUIRES_ADMIN_SECRET: Requirement = {
  met: targetHasAdminSecret,
  needs: 'a target with an admin secret, given with --admin-secret (ENGINE_ADMIN_SECRET)',
};

/** Cases whose webhook the target reads from its own environment: the suite cannot set another engine's. */
export const REQUIRES_HOOK_ENVIRONMENT: Requirement = {
  met: isManaged || (process.env.ENGINE_CONFORMANCE_HOOK_URL !== undefined && process.env.ENGINE_WEBHOOK_PORT !== undefined),
  needs: "ENGINE_CONFORMANCE_HOOK_URL, ENGINE_CONFORMANCE_HOOK_SECRET and ENGINE_WEBHOOK_PORT set alike in the suite's and the target's environment",
};

/**
 * Cases whose remote URL the target fills in from its own environment: ENGINE_CONFORMANCE_REMOTE_HOST
 * names the host at which the target reaches the suite's mock servers (the servers the run starts have it).
 */
export const REQUIRES_REMOTE_HOST_ENVIRONMENT: Requirement = {
  met: isManaged || process.env.ENGINE_CONFORMANCE_REMOTE_HOST !== undefined,
  needs: "ENGINE_CONFORMANCE_REMOTE_HOST (the host at which the target reaches the suite's mock servers) set alike in the suite's and the target's environment",
};

function makeTarget(url: string, adminSecret: string | undefined, databaseUrl: string, db: () => Promise<Client>): Target {
  // The curl lines of failures name the secret's variable, never its value (secrets.ts).
  registerSecret(adminSecret, 'ENGINE_ADMIN_SECRET');
  const adminHeaders = (): Record<string, string> => (adminSecret ? { 'x-engine-admin-secret': adminSecret } : { 'x-engine-role': 'admin' });
  const target: Target = {
    url,
    adminSecret,
    databaseUrl,
    adminHeaders,
    request: (method, path, options) => httpRequest(url, method, path, options),
    metadata: (envelope, options = {}) =>
      httpRequest(url, 'POST', options.endpoint ?? '/v1/metadata', { body: envelope, headers: { ...adminHeaders(), ...(options.headers ?? {}) } }),
    graphql: (query, variables, options = {}) =>
      httpRequest(url, 'POST', '/v1/graphql', {
        body: { query, ...(variables ? { variables } : {}), ...(options.operationName ? { operationName: options.operationName } : {}) },
        headers: options.headers ?? adminHeaders(),
      }),
    async sql(text, values) {
      // SQL names session variables too (a function reading its session argument): in the suite's brand.
      return (await (await db()).query(brandedText(text), values)).rows;
    },
    async reset() {
      const r = await target.metadata({ type: 'clear_metadata', args: {} });
      if (r.status !== 200) throw new Error(`clear_metadata failed: ${r.status} ${r.text}`);
      // clear_metadata keeps how the metadata describes the server's own database (decision
      // dec.metadata.default-source): a case that set it must not hand it to the next ones.
      const left = (await target.metadata({ type: 'export_metadata', args: {} })).body as Record<string, unknown> | undefined;
      if (left?.default_source !== undefined) {
        const taken = await target.metadata({ type: 'replace_metadata', args: { ...left, default_source: null } });
        if (taken.status !== 200) throw new Error(`replace_metadata failed: ${taken.status} ${taken.text}`);
      }
    },
  };
  return target;
}

/**
 * Register the hooks that provide a target to the current test file and return it. Profiles
 * named here are started alongside (managed runs) or taken from ENGINE_URL_<PROFILE>.
 */
export function useTarget(options: { profiles?: ProfileName[] } = {}): TargetHandle {
  const servers: RunningServer[] = [];
  const profiles = new Map<ProfileName, Target>();
  let main: Target | undefined;
  let hook: AuthHook | undefined;
  let jwks: JwksServer | undefined;
  let client: Client | undefined;
  let databaseName: string | undefined;
  let databaseUrl = '';

  const db = async () => {
    if (!client) {
      client = new Client({ connectionString: databaseUrl });
      await client.connect();
    }
    return client;
  };

  beforeAll(async () => {
    const uses = (placeholder: string) => (options.profiles ?? []).some((p) => Object.values(PROFILES[p].settings).some((v) => v.includes(placeholder)));
    // The mocks (msw, express) load only in the files whose profiles point at them.
    if (uses(AUTH_HOOK_URL)) hook = await (require('./authHook') as typeof import('./authHook')).startAuthHook();
    if (uses(JWKS_URL)) jwks = await (require('./jwks') as typeof import('./jwks')).startJwks();
    if (!isManaged) {
      if (!settings.databaseUrl) throw new Error('ENGINE_DATABASE_URL is required with ENGINE_URL');
      databaseUrl = settings.databaseUrl;
      main = makeTarget(settings.url!, settings.adminSecret, databaseUrl, db);
      for (const name of options.profiles ?? []) {
        const url = settings.profileUrls[name];
        if (url) profiles.set(name, makeTarget(url, PROFILES[name].usesAdminSecret ? settings.adminSecret : undefined, databaseUrl, db));
        else if (name === mainTargetProfile) profiles.set(name, main);
      }
      await main.reset();
      return;
    }
    // The worker's server, when the run started one and the file needs no profile.
    const shared = options.profiles?.length ? undefined : await sharedServer();
    if (shared) {
      databaseUrl = shared.databaseUrl;
      main = makeTarget(shared.url, shared.adminSecret, databaseUrl, db);
      await main.reset();
      return;
    }
    const cluster = process.env[CLUSTER_URL_VARIABLE];
    if (!cluster) throw new Error(`${CLUSTER_URL_VARIABLE} is not set: run through jest's global setup`);
    ({ name: databaseName, url: databaseUrl } = await createDatabase(cluster));
    const adminSecret = randomBytes(12).toString('hex');
    const { startOwnServer } = require('./ownServer') as typeof import('./ownServer');
    const start = async (extra: Record<string, string>, secret: string | undefined) => {
      const server = await startOwnServer(databaseUrl, { ...(secret ? { ENGINE_GRAPHQL_ADMIN_SECRET: secret } : {}), ...extra });
      servers.push(server);
      return makeTarget(server.url, secret, databaseUrl, db);
    };
    main = await start({}, adminSecret);
    for (const name of options.profiles ?? []) {
      const profile = PROFILES[name];
      const settings = Object.fromEntries(
        Object.entries(profile.settings).map(([k, v]) => [k, v.replace(AUTH_HOOK_URL, () => hook!.url).replace(JWKS_URL, () => jwks!.url)]),
      );
      profiles.set(name, await start(settings, profile.usesAdminSecret ? adminSecret : undefined));
    }
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await hook?.close();
    await jwks?.close();
    await client?.end();
    if (databaseName) await dropDatabase(process.env[CLUSTER_URL_VARIABLE]!, databaseName);
  });

  const current = () => {
    if (!main) throw new Error('the target is available inside tests and hooks only');
    return main;
  };
  return {
    get url() {
      return current().url;
    },
    get adminSecret() {
      return current().adminSecret;
    },
    get databaseUrl() {
      return current().databaseUrl;
    },
    adminHeaders: () => current().adminHeaders(),
    request: (...a) => current().request(...a),
    metadata: (...a) => current().metadata(...a),
    graphql: (...a) => current().graphql(...a),
    sql: (...a) => current().sql(...a),
    reset: () => current().reset(),
    profileTarget: (name) => profiles.get(name),
    jwks: () => {
      if (!jwks) throw new Error('no jwt-jwk profile was asked for');
      return jwks;
    },
    authHook: () => {
      if (!hook) throw new Error('no hook profile was asked for');
      return hook;
    },
  };
}
