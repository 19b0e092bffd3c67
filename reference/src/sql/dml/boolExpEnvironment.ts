// What a BoolExp in the metadata form is compiled with, and where its problems are reported:
// at one path (permissions), or below it as the engine reports the legacy DML's where.
import { schema } from '../../../../spec';
import type { DbColumn } from '../../db/introspection';
import type { CompatHeaders } from '../../sessionNames';
import type { Models, TableModel } from '../../schema/model';
import type { sql } from '../graphql/context';
import type { DmlRole } from './dmlRole';

export interface BoolExpEnvironment {
  models: Models;
  /** Where the expression sits in the request, for error paths. */
  path: string;
  /** Values given as session variable names are resolved here (permissions); identity otherwise. */
  resolveValue?: (value: unknown, column: DbColumn) => unknown;
  /**
   * In a permission, `_in` and `_nin` may name a session variable holding a list; its values, when
   * the request is known. A permission checked without a request takes the name alone.
   */
  sessionLists?: 'unresolved' | ((name: string, column: DbColumn) => unknown[]);
  /** Which names are session variables: x-engine-…, and x-hasura-… on a compatible server. */
  compatHeaders?: CompatHeaders;
  /**
   * The role of a DML request other than admin: it may name only columns it may read, and rows
   * reached through relationships and `_exists` are those it may read.
   */
  role?: DmlRole;
  /** The table the whole expression is about, and its alias: what `["$", column]` names. */
  root?: { table: TableModel; alias: sql.SQLNode };
  /**
   * The legacy DML's where (decision dec.dml.where-paths): a problem is reported below `path` by
   * column and operator, and below `_exists._where`, as the engine reports it. The keys of
   * and/or/not/exists add nothing to `path`: `shape` is where a problem with their shape is
   * reported; `root` is where the role's checks are. A permission reports every problem at `path`.
   */
  where?: { shape: string; root: string };
}

/** The environment below `keys` of the where (unchanged outside a DML where). */
export const below = (env: BoolExpEnvironment, ...keys: string[]): BoolExpEnvironment =>
  env.where ? { ...env, path: keys.reduce<string>((p, k) => schema.childPath(p, k), env.path) } : env;
/** The environment below the key of a connective: only its shape path goes down. */
export const belowConnective = (env: BoolExpEnvironment, key: string): BoolExpEnvironment =>
  env.where ? { ...env, where: { ...env.where, shape: schema.childPath(env.where.shape, key) } } : env;
export const shapePath = (env: BoolExpEnvironment) => env.where?.shape ?? env.path;
export const rolePath = (env: BoolExpEnvironment) => env.where?.root ?? env.path;

/** A where of the DML at `path`: its problems below it, as the engine reports them (decision dec.dml.where-paths). */
export const whereEnv = (env: BoolExpEnvironment, path: string): BoolExpEnvironment => ({ ...env, path, where: { shape: path, root: path } });
