// HTTP to the target, and assertions that say how to reproduce a failure by hand.

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: unknown;
  /** A curl command that sends the same request. */
  curl: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** A JSON value, or a raw string sent as it is. */
  body?: unknown;
  raw?: boolean;
}

import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Agent, request as nodeRequest, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { branded, brandedText } from './brand';
import { headerArgument, holdsSecret, jwtNote, knownSecrets, shellWord } from './secrets';

// Connections are kept between requests, and let go after a second idle: well before a server's
// own keep-alive timeout (five seconds is usual), so a request does not meet a connection the
// server is closing. One that does all the same (a reused connection reset before any answer) is
// sent again once on a new one, as Node's documentation advises.
const IDLE_MS = 1000;
const agents = { http: new Agent({ keepAlive: true, timeout: IDLE_MS }), https: new HttpsAgent({ keepAlive: true, timeout: IDLE_MS }) };

interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
}

function send(url: string, method: string, headers: Record<string, string>, payload: string | undefined, retried = false): Promise<RawAnswer> {
  const secure = url.startsWith('https:');
  return new Promise((resolve, reject) => {
    const req = (secure ? httpsRequest : nodeRequest)(url, { method, headers, agent: secure ? agents.https : agents.http }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (typeof value === 'string') answerHeaders.set(name, value);
          else for (const v of value ?? []) answerHeaders.append(name, v);
        }
        resolve({ status: res.statusCode ?? 0, headers: answerHeaders, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (req.reusedSocket && error.code === 'ECONNRESET' && !retried) resolve(send(url, method, headers, payload, true));
      else reject(error);
    });
    req.end(payload);
  });
}

export async function httpRequest(base: string, method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> {
  // The Engine's names as the suite's brand spells them (brand.ts).
  const headers: Record<string, string> = branded({ ...(options.headers ?? {}) });
  let payload: string | undefined;
  if (options.body !== undefined) {
    payload = options.raw ? brandedText(String(options.body)) : JSON.stringify(branded(options.body));
    headers['content-type'] ??= 'application/json';
  }
  // node:http sends the headers as given (a case may name another Host: DNS rebinding) and no
  // Accept-Encoding, so that answers come uncompressed.
  const answer = await send(base + path, method, headers, payload);
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    body = undefined;
  }
  const result = { ...answer, body } as HttpResult;
  // Written when a failure asks for it: a long body goes to a file beside the report, so that the
  // curl line stays whole and runs as it is.
  let curl: string | undefined;
  Object.defineProperty(result, 'curl', { enumerable: true, get: () => (curl ??= curlLine(base + path, method, headers, payload)) });
  return result;
}

/** Bodies longer than this are sent from a file in the curl line. */
const INLINE_BODY_CHARS = 2000;

/** Where request bodies of curl lines go: `conformance-requests/` in the report's directory. */
const requestsDir = () => join(process.env.ENGINE_CONFORMANCE_REPORT_DIR ?? process.cwd(), 'conformance-requests');

/**
 * The request as a curl command. Secrets (secrets.ts) stand in it as the environment variables the
 * report names, never as their values.
 */
export function curlLine(url: string, method: string, headers: Record<string, string>, payload: string | undefined, secrets = knownSecrets()): string {
  let data: string | undefined;
  // A body with a secret in it stays in the line, where the shell puts the secret in.
  if (payload !== undefined && payload.length > INLINE_BODY_CHARS && !holdsSecret(payload, secrets)) {
    const dir = requestsDir();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${createHash('sha256').update(payload).digest('hex').slice(0, 16)}.body`);
    writeFileSync(file, payload);
    data = `--data-binary @${shellWord(file, [])}`;
  } else if (payload !== undefined) {
    data = `--data-binary ${shellWord(payload, secrets)}`;
  }
  const line = [
    'curl -sS -i -X',
    method,
    shellWord(url, []),
    ...Object.entries(headers).map(([k, v]) => headerArgument(k, v, secrets)),
    ...(data !== undefined ? [data] : []),
  ].join(' ');
  const note = jwtNote(Object.values(headers).join('\n'));
  return note ? `${line} ${note}` : line;
}

/** Assert status and body (literal JSON); a failure message ends with the curl command. */
export function expectResponse(result: HttpResult, status: number, body?: unknown): void {
  try {
    expect({ status: result.status, body: result.body ?? result.text }).toEqual({ status, body: body === undefined ? expect.anything() : body });
  } catch (error) {
    if (error instanceof Error) error.message += `\n\nReproduce with:\n  ${result.curl}`;
    throw error;
  }
}

/** Assert the error envelope of SPEC.md §7.1. */
export function expectError(result: HttpResult, status: number, error: { path?: string; error: string | RegExp; code?: string | null }): void {
  const expected: Record<string, unknown> = {
    error: typeof error.error === 'string' ? error.error : expect.stringMatching(error.error),
  };
  if (error.path !== undefined) expected.path = error.path;
  if (error.code !== undefined && error.code !== null) expected.code = error.code;
  try {
    expect(result.status).toBe(status);
    expect(result.body).toEqual(expect.objectContaining(expected));
    if (error.code === null) expect(result.body).not.toHaveProperty('code');
  } catch (e) {
    if (e instanceof Error) e.message += `\n\nResponse: ${result.status} ${result.text.slice(0, 2000)}\nReproduce with:\n  ${result.curl}`;
    throw e;
  }
}
