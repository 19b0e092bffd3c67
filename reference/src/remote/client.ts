// Talking to remote GraphQL servers: where a remote schema's definition points, its schema
// (by introspection), and one request sent on, each bounded in time and in the size of the answer.
import { buildClientSchema, getIntrospectionQuery, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { formatMessage, type RemoteSchema, type TlsAllow } from '../../../spec';
import type { Session } from '../auth/session';
import { addressFromVariable, resolveAddress, resolveHeaderValues } from '../metadata/environmentTemplate';
import { nestsDeeperThan } from '../schema/documentNesting';
import { spokenName } from '../sessionNames';
import type { AnswerBudget } from './answerBytes';
import { allowanceFor, outgoingFetch } from './outgoingTls';
import { introspectionProblem, remoteSchemaProblem } from './validity';

/** A remote server's answer may not be larger than this; a bigger one is a failure, not a crash. */
export const MAX_REMOTE_ANSWER_BYTES = 64 * 1024 * 1024;

/** Where a remote schema is and what every request to it carries. */
export interface RemoteEndpoint {
  name: string;
  url: string;
  headers: Record<string, string>;
  forwardClientHeaders: boolean;
  timeoutMs: number;
  /** The entries of the metadata's TLS allow-list for its address (decision dec.network.tls-allowlist). */
  allowlist?: readonly TlsAllow[];
  /** The address as the definition gives it (url_from_env: the variable's name), as errors name it. */
  shown: string;
}

/** Why a remote server could not be used, in words for the client. */
export class RemoteFailure extends Error {}

/**
 * A failure said in the engine's words alone, naming no remote: a schema it cannot build (decision
 * dec.remote-schema.valid-schema), a request that did not get through (err.remote-schema-error.http-exception).
 */
export class UnframedRemoteFailure extends RemoteFailure {
  constructor(
    message: string,
    /** Which of the catalogue's remote-schema-error entries it is. */
    readonly kind: 'invalid-schema' | 'http-exception',
  ) {
    super(message);
  }
}

/** The request did not get through: the remote could not be reached or did not answer in time. */
class HttpException extends RemoteFailure {}

/** The definition with the environment's values, or why it cannot be used. */
export function remoteEndpoint(remote: RemoteSchema, env: NodeJS.ProcessEnv, allowlist: readonly TlsAllow[] = []): RemoteEndpoint {
  const d = remote.definition;
  const url = d.url !== undefined ? resolveAddress(d.url, env) : addressFromVariable(d.url_from_env!, 'url_from_env', env);
  if (typeof url !== 'string') throw new RemoteFailure(url.problem);
  const headers = resolveHeaderValues(d.headers, env);
  if ('problem' in headers) throw new RemoteFailure(headers.problem as string);
  const allowance = allowanceFor(allowlist, url);
  const shown = d.url ?? d.url_from_env!;
  return { name: remote.name, url, headers, forwardClientHeaders: d.forward_client_headers, timeoutMs: d.timeout_seconds * 1000, allowlist: allowance, shown };
}

/** Client headers never sent on: the connection's own, and the engine's credentials. */
const NOT_FORWARDED = new Set([
  'host',
  'content-length',
  'content-type',
  'content-encoding',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'accept-encoding',
  'proxy-authorization',
  'proxy-connection',
  'x-engine-admin-secret',
]);

/**
 * The headers of a request to a remote server (decision dec.remote-schema.headers): the client's
 * when the definition forwards them, then the configured ones, then the session's variables as
 * X-Engine-* headers (X-Hasura-* from a compatible server: decision dec.compat.headers), each later
 * group overriding an earlier one.
 */
export function remoteHeaders(
  endpoint: RemoteEndpoint,
  session: Session | undefined,
  client: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = endpoint.forwardClientHeaders ? forwardedHeaders(client) : {};
  Object.assign(out, endpoint.headers);
  if (session) {
    out[spokenName('x-engine-role', session.compatHeaders)] = session.role;
    for (const [name, value] of Object.entries(session.variables)) out[spokenName(name, session.compatHeaders)] = value;
  }
  out['content-type'] = 'application/json';
  out.accept = 'application/json';
  return out;
}

/** The client's headers that may be passed on to another server. */
export function forwardedHeaders(client: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(client)) {
    const lower = name.toLowerCase();
    if (value === undefined || NOT_FORWARDED.has(lower) || lower.startsWith('x-engine-')) continue;
    out[lower] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** How deep a remote's JSON answer may nest (a GraphQL answer nests as deep as its query, introspection about 20). */
const REMOTE_JSON_DEPTH = 1000;

/** POST a JSON body: the status and the parsed JSON answer, or a RemoteFailure that says what went wrong. */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  timeoutMs: number,
  /** Aborted when whoever waits for the answer goes away. */
  cancelled?: AbortSignal,
  /** The request's bound on the bytes of remote answers it holds. */
  budget?: AnswerBudget,
  /** The metadata's TLS allow-list. */
  allowlist: readonly TlsAllow[] = [],
): Promise<{ status: number; json: unknown }> {
  let response: Response;
  let text: string;
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const signal = cancelled ? AbortSignal.any([timeout, cancelled]) : timeout;
    response = await outgoingFetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal, redirect: 'error' }, allowlist);
    text = await boundedText(response, budget);
  } catch (error) {
    if (cancelled?.aborted && !timeout.aborted) throw new RemoteFailure('the request that asked for it went away');
    throw failure(error, timeoutMs);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new RemoteFailure(`it answered ${response.status} with a body that is not JSON`);
  }
  // What is written out again must not nest deeper than a recursion can follow.
  if (nestsDeeperThan(json, REMOTE_JSON_DEPTH)) throw new RemoteFailure(`it answered ${response.status} with JSON nested deeper than ${REMOTE_JSON_DEPTH}`);
  return { status: response.status, json };
}

/** POST a GraphQL request; the parsed JSON answer, or a RemoteFailure that says what went wrong. */
export async function postGraphQL(
  endpoint: RemoteEndpoint,
  body: unknown,
  headers: Record<string, string>,
  cancelled?: AbortSignal,
  budget?: AnswerBudget,
): Promise<{ data?: unknown; errors?: unknown }> {
  let answer: { status: number; json: unknown };
  try {
    answer = await postJson(endpoint.url, headers, body, endpoint.timeoutMs, cancelled, budget, endpoint.allowlist);
  } catch (error) {
    if (error instanceof HttpException)
      throw new UnframedRemoteFailure(formatMessage('err.remote-schema-error.http-exception', JSON.stringify(endpoint.shown)), 'http-exception');
    throw error;
  }
  const { status, json } = answer;
  if (typeof json !== 'object' || json === null || Array.isArray(json) || !('data' in json || 'errors' in json)) {
    throw new RemoteFailure(`it answered ${status} without "data" or "errors"`);
  }
  return json as { data?: unknown; errors?: unknown };
}

/** The remote's schema, by the standard introspection query. */
export async function introspectRemote(endpoint: RemoteEndpoint, cancelled?: AbortSignal): Promise<GraphQLSchema> {
  const answer = await postGraphQL(
    endpoint,
    { query: getIntrospectionQuery() },
    { ...endpoint.headers, 'content-type': 'application/json', accept: 'application/json' },
    cancelled,
  );
  if (Array.isArray(answer.errors) && answer.errors.length > 0) {
    const first = answer.errors[0] as { message?: unknown };
    throw new RemoteFailure(`introspection failed: ${typeof first.message === 'string' ? first.message : JSON.stringify(first)}`);
  }
  const data = answer.data as IntrospectionQuery | undefined;
  const unreadable = data && typeof data === 'object' && data.__schema ? introspectionProblem(data.__schema) : undefined;
  if (unreadable) throw new UnframedRemoteFailure(unreadable, 'invalid-schema');
  let schema: GraphQLSchema;
  try {
    schema = buildClientSchema(answer.data as IntrospectionQuery);
  } catch (error) {
    throw new RemoteFailure(`its introspection answer is not a valid schema: ${error instanceof Error ? error.message : String(error)}`);
  }
  const problem = remoteSchemaProblem(schema);
  if (problem) throw new UnframedRemoteFailure(problem, 'invalid-schema');
  return schema;
}

function failure(error: unknown, timeoutMs: number): RemoteFailure {
  if (error instanceof RemoteFailure) return error;
  const e = error as { name?: string; cause?: { code?: string; message?: string }; message?: string };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return new HttpException(`it did not answer within ${timeoutMs / 1000} s`);
  const code = e.cause?.code;
  // A certificate refused says so: the TLS allow-list may be what the administrator needs (dec.network.tls-allowlist).
  if (code && /CERT|SIGNATURE/.test(code)) return new RemoteFailure(`its TLS certificate was refused (${code})`);
  return new HttpException(code ?? e.cause?.message ?? e.message ?? String(error));
}

async function boundedText(response: Response, budget: AnswerBudget | undefined): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > MAX_REMOTE_ANSWER_BYTES) throw new RemoteFailure(`its answer is larger than ${MAX_REMOTE_ANSWER_BYTES} bytes`);
  if (!response.body) return '';
  // Counted before it is read when its length is declared: a request the role's bound cannot hold is
  // refused before it reads anything, rather than reading a part that crowds out the others; what
  // arrives past the declared length (a compressed answer) is counted as it comes. The bytes stay
  // counted until the request's answer has been written.
  let counted = 0;
  if (budget && declared > 0) {
    const over = await budget.takeOrWait(declared);
    if (over) {
      await response.body.cancel().catch(() => undefined);
      throw new RemoteFailure(over);
    }
    counted = declared;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_REMOTE_ANSWER_BYTES) throw new RemoteFailure(`its answer is larger than ${MAX_REMOTE_ANSWER_BYTES} bytes`);
    if (size > counted) {
      const over = await budget?.takeOrWait(size - counted);
      if (over) throw new RemoteFailure(over);
      counted = size;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
