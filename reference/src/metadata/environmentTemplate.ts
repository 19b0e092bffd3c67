// Webhook and handler addresses may name the engine's environment variables in double braces.

/** `{{VAR}}` in a webhook is the engine's environment variable VAR. */
export function resolveTemplate(text: string, env: NodeJS.ProcessEnv): string | { problem: string } {
  let problem: string | undefined;
  const out = text.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_m, name: string) => {
    const value = env[name];
    if (value === undefined) problem ??= `the environment variable ${name} is not set`;
    return value ?? '';
  });
  return problem ? { problem } : out;
}
