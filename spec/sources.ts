// Sources: PostgreSQL databases served beside the server's own (decision dec.source.forms). The
// server's own database is the source named `default`; others are added by pg_add_source with the
// engine's configuration form and listed under `sources` in the export.
import { nonEmptyName } from './names';
import { sourceCustomization } from './source-customization';
import { array, boolean, integer, literal, object, parseFailure, parsed, refine, string, union, type ParseResult, type Schema } from './schema';

/** The source every table, function and operation without a `source` argument belongs to. */
export const DEFAULT_SOURCE = 'default';

/** Where a source's database is: a URL, the environment variable that holds one, or its parts. */
export type DatabaseUrl =
  string | { from_env: string } | { connection_parameters: { host: string; port: number; username: string; password?: string; database: string } };

export interface PoolSettings {
  max_connections?: number;
  total_max_connections?: number;
  idle_timeout?: number;
  retries?: number;
  pool_timeout?: number;
  connection_lifetime?: number;
}

export interface ConnectionInfo {
  database_url: DatabaseUrl;
  pool_settings?: PoolSettings;
  isolation_level?: 'read-committed' | 'repeatable-read' | 'serializable';
  use_prepared_statements?: boolean;
}

export interface SourceConfiguration {
  connection_info: ConnectionInfo;
  read_replicas?: ConnectionInfo[];
  extensions_schema?: string;
}

const connectionParameters = object({ host: string, port: integer, username: string, database: string }, { password: string }) as Schema<{
  host: string;
  port: number;
  username: string;
  password?: string;
  database: string;
}>;

const databaseUrl: Schema<DatabaseUrl> = union<[string, { from_env: string }, { connection_parameters: Record<string, unknown> }]>(
  [string, object({ from_env: nonEmptyName }), object({ connection_parameters: connectionParameters })],
  'String or Object',
) as Schema<DatabaseUrl>;

const nonNegative = refine(integer, (v, path): ParseResult<number> => (v < 0 ? parseFailure(path, 'expected a number not below 0') : parsed(v)));

const poolSettings: Schema<PoolSettings> = object(
  {},
  {
    max_connections: refine(integer, (v, path): ParseResult<number> => (v < 1 ? parseFailure(path, 'expected a number above 0') : parsed(v))),
    total_max_connections: nonNegative,
    idle_timeout: nonNegative,
    retries: nonNegative,
    pool_timeout: nonNegative,
    connection_lifetime: nonNegative,
  },
);

export const connectionInfo: Schema<ConnectionInfo> = object(
  { database_url: databaseUrl },
  {
    pool_settings: poolSettings,
    isolation_level: literal('read-committed', 'repeatable-read', 'serializable'),
    use_prepared_statements: boolean,
  },
);

export const sourceConfiguration: Schema<SourceConfiguration> = object(
  { connection_info: connectionInfo },
  { read_replicas: array(connectionInfo), extensions_schema: string },
);

/** The name of a source: not empty; `default` is the server's own database. */
export const sourceName = nonEmptyName;

/** How the source's root fields and types are named (decision dec.source.customization). */
const customization = sourceCustomization;

export const addSource = object(
  { name: sourceName, configuration: sourceConfiguration },
  { replace_configuration: boolean, customization, kind: literal('postgres') },
);
export const dropSource = object({ name: sourceName }, { cascade: boolean });
export const renameSource = object({ name: sourceName, new_name: sourceName });
export const updateSource = object({ name: sourceName }, { configuration: sourceConfiguration, customization });
