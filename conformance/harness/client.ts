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
import { request as nodeRequest } from 'node:http';
import { join } from 'node:path';

function requestWithHost(url: string, method: string, headers: Record<string, string>, payload: string | undefined): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = nodeRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') responseHeaders.set(name, value);
        resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 0, headers: responseHeaders }));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export async function httpRequest(base: string, method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let payload: string | undefined;
  if (options.body !== undefined) {
    payload = options.raw ? String(options.body) : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  // fetch sends the URL's own Host; a case that names another (DNS rebinding) goes through node:http.
  const response =
    headers.host !== undefined
      ? await requestWithHost(base + path, method, headers, payload)
      : await fetch(base + path, { method, headers, ...(payload !== undefined ? { body: payload } : {}) });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const result = { status: response.status, headers: response.headers, text, body } as HttpResult;
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

export function curlLine(url: string, method: string, headers: Record<string, string>, payload: string | undefined): string {
  let data: string | undefined;
  if (payload !== undefined && payload.length > INLINE_BODY_CHARS) {
    const dir = requestsDir();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${createHash('sha256').update(payload).digest('hex').slice(0, 16)}.body`);
    writeFileSync(file, payload);
    data = `--data-binary @${shellQuote(file)}`;
  } else if (payload !== undefined) {
    data = `--data-binary ${shellQuote(payload)}`;
  }
  return [
    'curl -sS -i -X',
    method,
    shellQuote(url),
    ...Object.entries(headers).map(([k, v]) => `-H ${shellQuote(`${k}: ${v}`)}`),
    ...(data !== undefined ? [data] : []),
  ].join(' ');
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
