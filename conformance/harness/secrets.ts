// Reports are shared (attached to an issue, kept by CI): they must not carry what opens the target.
// A curl line reads the admin secret, JWTs and the webhook secret from environment variables
// instead (`-H "X-Engine-Admin-Secret: $ENGINE_ADMIN_SECRET"`), each report says once how to set
// them, and the rest of a report's text has their values replaced by the same names.

export interface Secret {
  value: string;
  /** The environment variable a curl line reads it from. */
  variable: string;
}

/** Where a JWT stands in a curl line. */
export const JWT_VARIABLE = 'ENGINE_JWT';
const JWT = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;

/** The environment variables that hold secrets a run knows, with what each is. */
export const SECRET_VARIABLES: Record<string, string> = {
  ENGINE_ADMIN_SECRET: 'the admin secret given with --admin-secret',
  ENGINE_CONFORMANCE_HOOK_SECRET: "the webhook secret of the target's environment",
};

const registered: Secret[] = [];

/** A secret the harness made or was given (the admin secret of a server it started). */
export function registerSecret(value: string | undefined, variable: string): void {
  if (value && !registered.some((s) => s.value === value)) registered.push({ value, variable });
}

/** The secrets of this run: those of its environment, and those registered. */
export function knownSecrets(env: NodeJS.ProcessEnv = process.env): Secret[] {
  const given = Object.keys(SECRET_VARIABLES)
    .filter((variable) => env[variable])
    .map((variable) => ({ value: env[variable]!, variable }));
  return [...given, ...registered.filter((r) => !given.some((g) => g.value === r.value))];
}

type Part = string | { variable: string; expansion?: string };

/** `text` cut where a secret or a JWT stands in it. */
function parts(text: string, secrets: readonly Secret[]): Part[] {
  const longestFirst = [...secrets].filter((s) => s.value.length > 0).sort((a, b) => b.value.length - a.value.length);
  const out: Part[] = [];
  let rest = text;
  while (rest.length > 0) {
    let at = -1;
    let found: { length: number; part: Part } | undefined;
    for (const s of longestFirst) {
      const i = rest.indexOf(s.value);
      if (i >= 0 && (at < 0 || i < at)) [at, found] = [i, { length: s.value.length, part: { variable: s.variable } }];
    }
    JWT.lastIndex = 0;
    const jwt = JWT.exec(rest);
    if (jwt && (at < 0 || jwt.index < at)) [at, found] = [jwt.index, { length: jwt[0].length, part: { variable: JWT_VARIABLE } }];
    if (!found) {
      out.push(rest);
      break;
    }
    if (at > 0) out.push(rest.slice(0, at));
    out.push(found.part);
    rest = rest.slice(at + found.length);
  }
  return out;
}

/**
 * A value given where a secret goes (an admin-secret header) that is not the secret but made from
 * it (the cases send its prefix, or it in another case, to see them refused): as the shell makes
 * it from the variable, so that the line still sends what the case sent.
 */
function madeFrom(value: string, secrets: readonly Secret[]): Part | undefined {
  for (const s of secrets) {
    if (value.length > 0 && value.length < s.value.length && s.value.startsWith(value)) return { variable: s.variable, expansion: `:0:${value.length}` };
    if (value !== s.value && value === s.value.toUpperCase()) return { variable: s.variable, expansion: '^^' };
    if (value !== s.value && value === s.value.toLowerCase()) return { variable: s.variable, expansion: ',,' };
  }
  return undefined;
}

const singleQuoted = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function doubleQuoted(list: readonly Part[]): string {
  let out = '';
  list.forEach((p, i) => {
    if (typeof p === 'string') {
      out += p.replace(/[\\"$`]/g, (c) => `\\${c}`);
      return;
    }
    const next = list[i + 1];
    const plain = p.expansion === undefined && !(typeof next === 'string' && /^[A-Za-z0-9_]/.test(next));
    out += plain ? `$${p.variable}` : `\${${p.variable}${p.expansion ?? ''}}`;
  });
  return `"${out}"`;
}

/** `text` as one shell word: single-quoted as it is, or, where secrets stand in it, double-quoted with the variables in their place. */
export function shellWord(text: string, secrets: readonly Secret[]): string {
  const cut = parts(text, secrets);
  return cut.every((p) => typeof p === 'string') ? singleQuoted(text) : doubleQuoted(cut);
}

/** Whether a secret or a JWT stands in `text`. */
export const holdsSecret = (text: string, secrets: readonly Secret[]) => parts(text, secrets).some((p) => typeof p !== 'string');

/** A header of a curl line: `-H 'name: value'`, or with the secret's variable in its place. */
export function headerArgument(name: string, value: string, secrets: readonly Secret[]): string {
  if (/-admin-secret$/i.test(name)) {
    const derived = parts(value, secrets).some((p) => typeof p !== 'string') ? undefined : madeFrom(value, secrets);
    if (derived) return `-H ${doubleQuoted([`${name}: `, derived])}`;
  }
  return `-H ${shellWord(`${name}: ${value}`, secrets)}`;
}

/** What a curl line's JWT held (its header and claims; the signature left out), to sign one like it. */
export function jwtNote(text: string): string | undefined {
  JWT.lastIndex = 0;
  const token = JWT.exec(text)?.[0];
  if (!token) return undefined;
  const [header, claims] = token.split('.').map((p) => {
    try {
      return Buffer.from(p, 'base64url').toString('utf8');
    } catch {
      return '?';
    }
  });
  return `# ${JWT_VARIABLE}: a token with the header ${header} and the claims ${claims}`;
}

/** `text` with every secret and JWT in it replaced by its variable, for the text of a report. */
export function redact(text: string, secrets: readonly Secret[] = knownSecrets()): string {
  return parts(text, secrets)
    .map((p) => (typeof p === 'string' ? p : `$${p.variable}`))
    .join('');
}

/** Said once at the top of a report: how the curl lines get their secrets. */
export function secretsNote(variables: Record<string, string> = SECRET_VARIABLES): string {
  const listed = Object.entries({ ...variables, [JWT_VARIABLE]: 'the token the case sent: sign one with the header and claims written after its line' })
    .map(([variable, what]) => `${variable} (${what})`)
    .join(', ');
  return `The curl lines read secrets from the environment; set those a line names before running it: ${listed}. psql lines read ENGINE_DATABASE_URL (the URL given with --database).`;
}
