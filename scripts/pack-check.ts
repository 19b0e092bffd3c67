// `npm run pack-check`: the package as users get it. Packs it, installs the tarball in an empty
// folder, and runs both binaries from there: --version and --help, then the reference server on
// its embedded PostgreSQL and the conformance CLI against it (one case file), exactly as the
// server's start line says. Exit code 0 when all of it works.
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
  for (const name of ['engine-conformance', 'engine-reference']) {
    const version = run(bin(name), ['--version'], app).trim();
    const help = run(bin(name), ['--help'], app);
    if (!/^engine-(conformance|reference) v?\d/.test(version) || !/usage/i.test(help)) throw new Error(`${name}: unexpected --version or --help output`);
    step(`${version}; --help prints its usage`);
  }
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
    const report = join(work, 'report');
    // As a user pastes it into a shell (it reads the database's password from its file).
    run('bash', ['-c', `${command} --filter metadata.test --report-dir '${report}'`], app);
    if (!existsSync(join(report, 'conformance-report.html'))) throw new Error('the conformance CLI wrote no report');
    step('engine-conformance --filter metadata.test against it: exit 0, report written');
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
