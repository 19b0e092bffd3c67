// `npm run pack-check`: the package as users get it. Packs it, installs the tarball in an empty
// folder, and runs both binaries from there: --version and --help, then the reference server on
// its embedded PostgreSQL and the conformance CLI against it, exactly as the server's start line
// says: refused while the server's metadata is in use, then the whole suite with --allow-clear,
// after which the metadata and the user's table must be as they were; then `engine-conformance diff`
// between that server and a second one. Exit code 0 when all of it works.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'engine-pack-'));
// Open like any project folder: as root, PostgreSQL runs as the user postgres, which must reach it.
chmodSync(work, 0o755);
const started = Date.now();
const step = (what: string) => process.stdout.write(`[pack-check ${((Date.now() - started) / 1000).toFixed(0)} s] ${what}\n`);

function run(command: string, args: string[], cwd: string): string {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'error' } });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/**
 * A command run while this process's event loop goes on: the server's output keeps being read
 * (a synchronous run would leave its pipe full and the server stuck writing its log).
 */
function runAsync(command: string, args: string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, npm_config_loglevel: 'error' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function main(): Promise<void> {
  step('npm pack (builds dist/ first)');
  run('npm', ['pack', '--pack-destination', work], root);
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error('npm pack wrote no tarball');
  const app = join(work, 'app');
  run('mkdir', ['-p', app], work);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'pack-check-app', private: true }));
  chmodSync(app, 0o755);
  step(`npm install ${tarball} in an empty folder`);
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(work, tarball)], app);
  const bin = (name: string) => join(app, 'node_modules', '.bin', name);
  const versions = new Set<string>();
  for (const name of ['engine-conformance', 'engine-reference']) {
    const version = run(bin(name), ['--version'], app).trim();
    const help = run(bin(name), ['--help'], app);
    // Both binaries say their version in one form: the name, a space, the package version.
    if (!new RegExp(`^${name} \\d+\\.\\d+\\.\\d+$`).test(version) || !/usage/i.test(help))
      throw new Error(`${name}: unexpected --version or --help output: ${version}`);
    versions.add(version.split(' ')[1]!);
    step(`${version}; --help prints its usage`);
  }
  if (versions.size !== 1) throw new Error(`the binaries say different versions: ${[...versions].join(', ')}`);
  if (existsSync(join(app, 'node_modules', 'engine-conformance', 'reference', 'src'))) throw new Error('the package ships TypeScript sources');
  const viaNpx = run('npx', ['--yes', '--package', join(work, tarball), 'engine-conformance', '--version'], app).trim();
  step(`npx --package ${tarball} engine-conformance --version: ${viaNpx}`);

  step('engine-reference on its embedded PostgreSQL');
  const server = spawn(bin('engine-reference'), [], {
    cwd: app,
    env: { ...process.env, ENGINE_GRAPHQL_DATA_DIR: join(work, 'data'), ENGINE_GRAPHQL_SERVER_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const command = await startLine(server);
    step(`its start line: ${command}`);
    const target = /--target (\S+)/.exec(command)?.[1];
    if (!target) throw new Error(`no --target in the start line: ${command}`);
    // A target in use: a table of the user's, tracked, with a permission.
    const admin = async (body: unknown, endpoint = '/v1/metadata') => {
      const r = await fetch(`${target}${endpoint}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      const text = await r.text();
      if (r.status !== 200) throw new Error(`${JSON.stringify(body).slice(0, 80)} answered ${r.status}: ${text}`);
      return JSON.parse(text) as unknown;
    };
    const table = { schema: 'public', name: 'pack_check_notes' };
    await admin(
      {
        type: 'run_sql',
        args: { sql: `create table public.pack_check_notes (id int primary key, body text); insert into public.pack_check_notes values (1, 'mine');` },
      },
      '/v2/query',
    );
    await admin({ type: 'track_table', args: { table } });
    await admin({ type: 'create_select_permission', args: { table, role: 'user', permission: { columns: ['id'], filter: {} } } });
    const before = JSON.stringify(await admin({ type: 'export_metadata', args: {} }));
    const report = join(work, 'report');
    // As a user pastes it into a shell (it reads the database's password from its file).
    const refused = await runAsync('bash', ['-c', `${command} --report-dir '${report}'`], app);
    if (refused.status !== 2 || !refused.stderr.includes('the target is in use: its metadata is not empty (1 table)'))
      throw new Error(`a target in use was not refused (exit ${refused.status}):\n${refused.stdout}\n${refused.stderr}`);
    step('engine-conformance against a target in use: refused with exit 2, one line');
    const whole = await runAsync('bash', ['-c', `${command} --allow-clear --report-dir '${report}'`], app);
    if (whole.status !== 0)
      throw new Error(`the whole suite from the package exited with ${whole.status}:\n${whole.stdout.slice(-6000)}\n${whole.stderr.slice(-6000)}`);
    const output = whole.stdout + whole.stderr;
    if (!existsSync(join(report, 'conformance-report.html'))) throw new Error('the conformance CLI wrote no report');
    const summary = output.split('\n').filter((l) => /^Conformance:|the target is as it was found/.test(l));
    step(`the whole suite from the package, --allow-clear: exit 0, report written; ${summary.join('; ')}`);
    const after = JSON.stringify(await admin({ type: 'export_metadata', args: {} }));
    if (after !== before) throw new Error(`the target's metadata changed:\nbefore ${before}\nafter  ${after}`);
    const rows = JSON.stringify(await admin({ type: 'run_sql', args: { sql: 'select id, body from public.pack_check_notes' } }, '/v2/query'));
    if (!rows.includes('"mine"')) throw new Error(`the user's table changed: ${rows}`);
    step(`the target's metadata and table are as they were: ${before}`);
    await diffBetween(command, before, admin);
  } finally {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
  }
  rmSync(work, { recursive: true, force: true });
  step('the package installs and both binaries run');
}

/**
 * `engine-conformance diff` from the package: the server above against a second one on its own
 * embedded PostgreSQL, a few scenarios; no difference, and the first server's metadata as it was.
 */
async function diffBetween(command: string, before: string, admin: (body: unknown) => Promise<unknown>): Promise<void> {
  const app = join(work, 'app');
  step('a second engine-reference, for engine-conformance diff');
  const second = spawn(join(app, 'node_modules', '.bin', 'engine-reference'), [], {
    cwd: app,
    env: { ...process.env, ENGINE_GRAPHQL_DATA_DIR: join(work, 'data-b'), ENGINE_GRAPHQL_SERVER_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const other = await startLine(second);
    const flags = (line: string) => /--target (\S+) --database (".*")/.exec(line)?.slice(1) ?? [];
    const [target, database] = flags(command);
    const [against, againstDatabase] = flags(other);
    if (!target || !database || !against || !againstDatabase) throw new Error(`no --target and --database in the start lines:\n${command}\n${other}`);
    const diff = await runAsync(
      'bash',
      [
        '-c',
        `npx engine-conformance diff --target ${target} --database ${database} --against ${against} --against-database ${againstDatabase} --runs 5 --allow-clear --report-dir '${join(work, 'report-diff')}'`,
      ],
      app,
    );
    if (diff.status !== 0 || !diff.stdout.includes('no difference in 5 scenarios'))
      throw new Error(`engine-conformance diff from the package exited with ${diff.status}:\n${diff.stdout.slice(-4000)}\n${diff.stderr.slice(-4000)}`);
    if (!existsSync(join(work, 'report-diff', 'diff-report.html'))) throw new Error('engine-conformance diff wrote no report');
    const after = JSON.stringify(await admin({ type: 'export_metadata', args: {} }));
    if (after !== before) throw new Error(`engine-conformance diff changed the target's metadata:\nbefore ${before}\nafter  ${after}`);
    step(
      `engine-conformance diff between the two: exit 0, ${diff.stdout
        .split('\n')
        .filter((l) => /no difference|as it was found/.test(l))
        .join('; ')}`,
    );
  } finally {
    if (second.exitCode === null && second.signalCode === null) {
      const exited = new Promise((resolve) => second.once('exit', resolve));
      second.kill('SIGTERM');
      await exited;
    }
  }
}

function startLine(server: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start in 60 s:\n${output}`)), 60_000);
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      const line = output
        .split('\n')
        .slice(0, -1)
        .find((l) => l.includes('check it with: '));
      if (line) {
        clearTimeout(timer);
        // From now on the server's log is read and dropped, so that its pipe never fills.
        for (const stream of [server.stdout!, server.stderr!]) {
          stream.off('data', take);
          stream.on('data', () => undefined);
        }
        resolve((JSON.parse(line) as { detail: { message: string } }).detail.message.replace(/^check it with: /, ''));
      }
    };
    server.stdout!.on('data', take);
    server.stderr!.on('data', take);
    server.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`pack-check failed: ${error instanceof Error ? error.message : String(error)}\n(left in ${work})\n`);
  process.exit(1);
});
