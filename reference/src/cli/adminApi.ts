// The server the commands of engine-reference talk to: its address and admin secret from the
// flags or the environment, a request to one of its admin endpoints, and what a failure to reach it says.

export interface AdminApi {
  readonly endpoint: string;
  /** POST a JSON body to an admin endpoint with the admin secret: the status and the JSON answer (null when it is none). */
  post(path: '/v1/metadata' | '/v1/query' | '/v2/query', body: unknown): Promise<{ status: number; body: unknown }>;
}

/** `--endpoint` (else ENGINE_ENDPOINT, else http://127.0.0.1:8080) and `--admin-secret` (else ENGINE_GRAPHQL_ADMIN_SECRET). */
export function adminApi(flags: { endpoint?: string; 'admin-secret'?: string }, env: NodeJS.ProcessEnv): AdminApi {
  const endpoint = (flags.endpoint ?? env.ENGINE_ENDPOINT ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  const secret = flags['admin-secret'] ?? env.ENGINE_GRAPHQL_ADMIN_SECRET;
  return {
    endpoint,
    async post(path, body) {
      const r = await fetch(`${endpoint}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(secret ? { 'x-engine-admin-secret': secret } : {}) },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: await r.json().catch(() => null) };
    },
  };
}

/**
 * A command's failure that means it could not be done (exit 2), said on one line: its own kind of
 * error (a directory it cannot read, under `where`), or a server it cannot reach. Any other is thrown on.
 */
export function couldNotBeDone(
  error: unknown,
  known: abstract new (...args: never[]) => Error,
  where: string,
  endpoint: string,
  err: (line: string) => void,
): 2 {
  const line = error instanceof known ? `${where}: ${error.message}` : unreachableMessage(error, endpoint);
  if (line === undefined) throw error;
  err(line);
  return 2;
}

/** What to say when `error` is fetch's own failure to reach the server; undefined for any other error. */
function unreachableMessage(error: unknown, endpoint: string): string | undefined {
  // fetch's TypeError may come from another realm than this module's.
  if ((error as Error).name !== 'TypeError' || !/fetch failed/.test((error as Error).message)) return undefined;
  return `cannot reach the server at ${endpoint}: ${String((error as { cause?: unknown }).cause ?? (error as Error).message)}`;
}
