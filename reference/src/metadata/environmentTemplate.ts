// Webhook, handler and remote addresses, and header values, taken from the engine's environment.
// A value read from the environment may be a secret (an admin secret, a key, a URL with its
// password): what cannot be used is named by its variable, never shown.
import type { HeaderSpec } from '../../../spec';

export type Resolved<T> = T | { problem: string };

const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** `{{VAR}}` in a text is the engine's environment variable VAR. */
export function resolveTemplate(text: string, env: NodeJS.ProcessEnv): Resolved<string> {
  let problem: string | undefined;
  const out = text.replace(VARIABLE, (_m, name: string) => {
    const value = env[name];
    if (value === undefined) problem ??= `the environment variable ${name} is not set`;
    return value ?? '';
  });
  return problem ? { problem } : out;
}

/**
 * An address with `{{VAR}}` placeholders filled in: an http or https URL, or why not. An address
 * that names no variable is the metadata's own text and is quoted; one made with variables is not.
 */
export function resolveAddress(template: string, env: NodeJS.ProcessEnv): Resolved<string> {
  const url = resolveTemplate(template, env);
  if (typeof url !== 'string') return url;
  const names = [...template.matchAll(VARIABLE)].map((m) => m[1]!);
  if (isHttpUrl(url)) return url;
  if (names.length === 0) return { problem: `${JSON.stringify(url)} is not an http or https URL` };
  return { problem: `the address made with the environment variable${names.length > 1 ? 's' : ''} ${names.join(', ')} is not an http or https URL` };
}

/** The address an environment variable holds (`field` says which setting named it), or why it cannot be used. */
export function addressFromVariable(name: string, field: string, env: NodeJS.ProcessEnv): Resolved<string> {
  const value = env[name];
  if (value === undefined || value === '') return { problem: `the environment variable ${name} (${field}) is not set` };
  return isHttpUrl(value) ? value : { problem: `the environment variable ${name} (${field}) does not hold an http or https URL` };
}

/**
 * Header values (lower-cased names) from the configuration, `value_from_env` read from the
 * environment. A value no HTTP request can carry (a line break, a control character) is refused
 * here, by its header and variable, before an HTTP client would quote it in its error.
 */
export function resolveHeaderValues(headers: readonly HeaderSpec[] | undefined, env: NodeJS.ProcessEnv): Resolved<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const h of headers ?? []) {
    const fromEnv = 'value_from_env' in h ? h.value_from_env : undefined;
    const value = fromEnv === undefined ? (h as { value: string }).value : env[fromEnv];
    const where = fromEnv === undefined ? `the value of header ${h.name}` : `the environment variable ${fromEnv} (header ${h.name})`;
    if (value === undefined) return { problem: `${where} is not set` };
    if (!isHeaderValue(value)) return { problem: `${where} is not a valid header value` };
    out[h.name.toLowerCase()] = value;
  }
  return out;
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** What an HTTP field value may hold (RFC 9110 §5.5): visible characters, spaces and tabs. */
const isHeaderValue = (value: string): boolean => /^[\t\x20-\x7e\x80-\xff]*$/.test(value);
