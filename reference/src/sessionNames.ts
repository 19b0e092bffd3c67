// The names of the engine's own headers and session variables: `X-Engine-*`, and with the
// compatibility setting (ENGINE_GRAPHQL_COMPAT_HEADERS=hasura, decision dec.compat.headers) also the
// `X-Hasura-*` names that clients written for the engine this API comes from send. Inside the
// server a session variable is always keyed `x-engine-…`; a compatible server names what it says
// and sends `x-hasura-…`, as those clients and their handlers read it.

/** The values of the compatibility setting. */
export const COMPAT_HEADERS = ['hasura'] as const;
export type CompatHeaders = (typeof COMPAT_HEADERS)[number];

const ENGINE = 'x-engine-';
const HASURA = 'x-hasura-';
const ENGINE_NAME = /^x-engine-/i;
const COMPAT_NAME = /^x-(?:engine|hasura)-/i;

/** Whether a value written in metadata (a permission, a preset) names a session variable. */
export const isSessionVariable = (value: unknown, compat?: CompatHeaders): value is string =>
  typeof value === 'string' && (compat ? COMPAT_NAME : ENGINE_NAME).test(value);

/** The key a session holds a variable under, for a name `isSessionVariable` took: `X-Hasura-User-Id` → `x-engine-user-id`. */
export function sessionKey(name: string): string {
  const lower = name.toLowerCase();
  return lower.startsWith(HASURA) ? ENGINE + lower.slice(HASURA.length) : lower;
}

/**
 * A name as the server says or sends it: an `x-engine-` name of a compatible server in the
 * compatibility brand, in the same case (`X-Engine-User-Id` → `X-Hasura-User-Id`,
 * `X-ENGINE-ROLE` → `X-HASURA-ROLE`); any other name as it is.
 */
export function spokenName(name: string, compat?: CompatHeaders): string {
  if (!compat) return name;
  return name.replace(/^(x-)(engine)(-)/i, (_m, x: string, brand: string, dash: string) => {
    const word = brand === 'ENGINE' ? 'HASURA' : brand[0] === 'E' ? 'Hasura' : 'hasura';
    return x + word + dash;
  });
}

/** Every `x-engine-` name in a message of the server's own, as `spokenName` says it. */
export const spokenText = (text: string, compat?: CompatHeaders): string =>
  compat ? text.replace(/\bx-engine-[A-Za-z0-9_-]*/gi, (name) => spokenName(name, compat)) : text;

/** A session's variables as they leave a server: keys as `spokenName` says them. */
export function spokenVariables(variables: Readonly<Record<string, string>>, compat?: CompatHeaders): Record<string, string> {
  if (!compat) return { ...variables };
  return Object.fromEntries(Object.entries(variables).map(([k, v]) => [spokenName(k, compat), v]));
}

/** Two names of one variable given with different values: both names, as given. */
export interface NameConflict {
  readonly names: readonly [string, string];
}

/**
 * Headers, claims or a webhook's answer with each `x-hasura-` key taken as its `x-engine-` key
 * (lower-cased), on a compatible server; as they are otherwise. One variable given under both
 * names with different values is a conflict, refused rather than resolved by a precedence.
 */
export function engineNamed<V>(
  entries: Readonly<Record<string, V>>,
  compat: CompatHeaders | undefined,
  same: (a: V, b: V) => boolean = (a, b) => a === b,
): { named: Record<string, V> } | NameConflict {
  if (!compat) return { named: { ...entries } };
  const named: Record<string, V> = {};
  const givenAs: Record<string, string> = {};
  for (const [name, value] of Object.entries(entries)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    const key = lower.startsWith(HASURA) || lower.startsWith(ENGINE) ? sessionKey(lower) : name;
    const earlier = givenAs[key];
    if (earlier !== undefined && !same(named[key]!, value)) return { names: [earlier, name] };
    named[key] = value;
    givenAs[key] ??= name;
  }
  return { named };
}
