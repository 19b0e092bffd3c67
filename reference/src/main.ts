// `npm start`: read the configuration, provision PostgreSQL, serve HTTP; stop cleanly on signals.
import './productionMode';
import { createServer } from 'node:net';
import { CatalogError } from './catalog/catalog';
import { metadataCommand } from './cli/metadata';
import { migrateCommand } from './cli/migrate';
import { ConfigError, FLAGS, loadConfig } from './config';
import { FLAG_HELP } from './flagHelp';
import { provisionDatabase, ProvisionError, type ProvisionedDatabase } from './db/provision';
import { createLogger } from './log';
import { keptNotServed } from './metadata/topLevel';
import { SERVER_VERSION, startServer, type RunningServer } from './server';

const USAGE = `Usage: engine-reference [--FLAG VALUE]...       run the server (flags or ENGINE_GRAPHQL_* variables)
       engine-reference metadata <export|apply|diff> DIR [options]
       engine-reference migrate <apply|status|create> [options]
       engine-reference --help | --version

Flags (each also an environment variable; a flag wins over its variable; see docs/SERVER.md):
${Object.entries(FLAGS)
  .map(([flag, variable]) => `  --${flag} (${variable})\n      default: ${FLAG_HELP[flag] ?? '(see docs/SERVER.md)'}`)
  .join('\n')}

Exit codes: 0 stopped cleanly, 1 failed to start or stopped on an error, 2 bad flag or setting.`;

class PortTaken extends Error {}

/** A postgres:// URL with its password replaced (text, not URL-encoded: `***` or a shell substitution). */
function withPassword(url: string, password: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:@/]*:)[^@]*@/, `$1${password}@`);
}

function portAvailable(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' ? new PortTaken(`port ${port} on ${host} is already in use: stop what uses it, or set ENGINE_GRAPHQL_SERVER_PORT`) : error,
      ),
    );
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (argv.includes('--version')) {
    // The same form as engine-conformance --version: the package version, without the API's "v".
    process.stdout.write(`engine-reference ${SERVER_VERSION.replace(/^v/, '')}\n`);
    return;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env, argv);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`engine-reference: ${error.message}\n(engine-reference --help lists the flags)\n`);
    process.exit(2);
  }
  const logger = createLogger(config.logLevel);
  let database: ProvisionedDatabase | undefined;
  let server: RunningServer | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    const graceMs = config.gracefulShutdownTimeoutSeconds * 1000;
    logger.log('info', 'shutdown', {
      message: server ? `stopping: finishing requests in flight (at most ${config.gracefulShutdownTimeoutSeconds} s)` : 'stopping',
    });
    // A request the engine cannot end (its own SQL running on) does not hold the exit back for long.
    const closed = server?.close(graceMs).catch((error: unknown) => logger.log('error', 'shutdown', { error: String(error) }));
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, graceMs + 5000).unref())]);
    await database?.stop().catch((error: unknown) => logger.log('error', 'shutdown', { error: String(error) }));
    logger.log('info', 'shutdown', { message: 'stopped' });
    process.exit(code);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (!stopping) return void stop(0);
    // A second signal: the user does not want to wait. The watchdog stops PostgreSQL.
    logger.log('warn', 'shutdown', { message: `${signal} again: exiting without waiting` });
    process.exit(1);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
  try {
    // A port already taken fails at once, before PostgreSQL is started for nothing.
    if (config.port !== 0) await portAvailable(config.host, config.port);
    database = await provisionDatabase({
      databaseUrl: config.databaseUrl,
      persistentDir: config.dataDir,
      log: (message, level = 'info') => logger.log(level, level === 'info' ? 'startup' : 'database', { message }),
      onLost: (message) => {
        logger.log('error', 'database', { message });
        void stop(1);
      },
    });
    server = await startServer(config, database.url, logger);
    if (config.compatHeaders) {
      const { read, overridden } = config.hasuraVariables ?? { read: [], overridden: [] };
      logger.log('info', 'startup', {
        message: `compatibility with ${config.compatHeaders}: X-Hasura-* headers, session variables and JWT claims are taken as the X-Engine-* ones`,
        ...(read.length ? { read_from: read } : {}),
      });
      for (const name of overridden) {
        logger.log('warn', 'startup', { message: `${name} is not used: ${name.replace(/^HASURA_/, 'ENGINE_')} (or its flag) is set too, and wins` });
      }
    }
    if (!config.adminSecret) {
      logger.log('warn', 'startup', {
        message: `no admin secret is set: every request is admin. Listening on ${config.host} only; set ENGINE_GRAPHQL_ADMIN_SECRET before exposing the server`,
      });
    }
    logger.log('info', 'startup', {
      message: `engine reference ${SERVER_VERSION} listening on ${config.host}:${server.port}`,
      database: database.description,
      // The embedded database's own URL without its password (never a configured one).
      ...(config.databaseUrl ? {} : { database_url: withPassword(database.url, '***') }),
      enabled_apis: [...config.enabledApis],
    });
    // Parts of the metadata kept but not acted on are said, never silently ignored.
    const kept = keptNotServed(server.engine.current().document);
    if (kept.length) logger.log('warn', 'startup', { message: `the metadata holds ${kept.join(', ')}: kept and exported, not acted on by this server` });
    // What checks this server: the suite against it, with the database it uses.
    const secret = config.adminSecret ? ' --admin-secret "$ENGINE_GRAPHQL_ADMIN_SECRET"' : '';
    // The password stays in its file: the line reads it from there when it runs.
    const databaseArgument = config.databaseUrl
      ? '"$ENGINE_GRAPHQL_DATABASE_URL"'
      : `"${withPassword(database.url, `$(cat '${database.passwordFile ?? ''}')`)}"`;
    logger.log('info', 'startup', { message: `check it with: npx engine-conformance --target ${server.url} --database ${databaseArgument}${secret}` });
    if (config.enableConsole) logger.log('info', 'startup', { message: `console: ${server.url}/console` });
  } catch (error) {
    const detail: Record<string, unknown> =
      error instanceof CatalogError ? { ...error.detail.toBody() } : { error: error instanceof Error ? error.message : String(error) };
    if (!(error instanceof ConfigError || error instanceof ProvisionError || error instanceof CatalogError || error instanceof PortTaken)) {
      Object.assign(detail, { stack: error instanceof Error ? error.stack : undefined });
    }
    logger.log('error', 'startup', detail);
    await stop(1);
  }
}

/** The commands beside the server: each with its own --help and exit codes. */
const COMMANDS = { metadata: metadataCommand, migrate: migrateCommand } as const;
const command = Object.hasOwn(COMMANDS, process.argv[2] ?? '') ? COMMANDS[process.argv[2] as keyof typeof COMMANDS] : undefined;

if (command) {
  command(process.argv.slice(3), process.env, { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
} else {
  void main();
}
