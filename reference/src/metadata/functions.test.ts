import type { MetadataDocument } from '../../../spec';
import { introspectionOf, type DbFunction } from '../db/introspection';
import { EngineError } from '../errors';
import {
  createFunctionPermission,
  dropFunctionPermission,
  exposedAs,
  functionGraphQLName,
  functionsReturning,
  resolveFunction,
  trackFunction,
  untrackFunction,
} from './functions';
import { withoutInconsistent } from './document';

const item = { schema: 'shop', name: 'item' };
const fn = (name: string, overrides: Partial<DbFunction> = {}): DbFunction => ({
  schema: 'shop',
  name,
  oid: '1',
  volatility: 'STABLE',
  returns_set: true,
  only_in_arguments: true,
  return_type: 'item',
  return_type_schema: 'shop',
  return_type_kind: 'c',
  return_relation: item,
  language: 'sql',
  comment: null,
  arguments: [{ name: 'q', type: 'text', type_schema: 'pg_catalog', type_kind: 'b', has_default: false }],
  ...overrides,
});
const db = introspectionOf(
  [{ ...item, kind: 'r', oid: '2' }],
  [],
  [
    fn('search'),
    fn('touch', { volatility: 'VOLATILE' }),
    fn('twice'),
    fn('twice', { oid: '3' }),
    fn('count', { returns_set: false, return_type: 'int4', return_type_kind: 'b', return_relation: null }),
  ],
);
const doc: MetadataDocument = { version: 2, tables: [{ table: item, select_permissions: [{ role: 'user', permission: { columns: '*', filter: {} } }] }] };
const refusal = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    if (error instanceof EngineError) return [error.code, error.message];
  }
  return undefined;
};

describe('tracked functions as metadata', () => {
  test('names and placement: custom name, schema prefix, volatility', () => {
    expect(functionGraphQLName({ function: { schema: 'public', name: 'search' } })).toBe('search');
    expect(functionGraphQLName({ function: { schema: 'shop', name: 'search' } })).toBe('shop_search');
    expect(functionGraphQLName({ function: { schema: 'shop', name: 'search' }, configuration: { custom_name: 'find' } })).toBe('find');
    expect(exposedAs({ function: item }, fn('x', { volatility: 'VOLATILE' }))).toBe('mutation');
    expect(exposedAs({ function: item }, fn('x', { volatility: 'IMMUTABLE' }))).toBe('query');
    expect(exposedAs({ function: item, configuration: { exposed_as: 'query' } }, fn('x', { volatility: 'VOLATILE' }))).toBe('query');
  });

  test('refusals, first problem first', () => {
    expect(refusal(() => resolveFunction(doc, db, { function: { schema: 'shop', name: 'gone' } }))).toEqual([
      'not-exists',
      'no such function exists in postgres : "shop.gone"',
    ]);
    expect(refusal(() => resolveFunction(doc, db, { function: { schema: 'shop', name: 'twice' } }))).toEqual([
      'not-supported',
      'function "shop.twice" is overloaded. Overloaded functions are not supported',
    ]);
    expect(refusal(() => resolveFunction(doc, db, { function: { schema: 'shop', name: 'count' } }))?.[0]).toBe('not-supported');
    expect(refusal(() => resolveFunction({ version: 2, tables: [] }, db, { function: { schema: 'shop', name: 'search' } }))).toEqual([
      'not-supported',
      'function "shop.search" cannot be tracked: the table "shop.item" it returns is not tracked',
    ]);
    expect(refusal(() => resolveFunction(doc, db, { function: { schema: 'shop', name: 'search' }, configuration: { exposed_as: 'mutation' } }))).toEqual([
      'not-supported',
      'function "shop.search" is STABLE and can only be exposed as a query',
    ]);
    expect(refusal(() => resolveFunction(doc, db, { function: { schema: 'shop', name: 'touch' }, configuration: { exposed_as: 'mutation' } }))).toBeUndefined();
    expect(refusal(() => resolveFunction(doc, db, { function: { schema: 'shop', name: 'search' }, configuration: { session_argument: 'q' } }))).toEqual([
      'not-exists',
      'function "shop.search" has no argument "q" of type json or jsonb',
    ]);
  });

  test('track, permissions and untrack leave no empty parts behind', () => {
    const tracked = trackFunction(doc, db, { function: { schema: 'shop', name: 'search' } });
    expect(tracked.functions).toEqual([{ function: { schema: 'shop', name: 'search' } }]);
    expect(refusal(() => trackFunction(tracked, db, { function: { schema: 'shop', name: 'search' } }))).toEqual([
      'already-tracked',
      'function already tracked : "shop.search"',
    ]);
    expect(refusal(() => createFunctionPermission(tracked, db, { function: { schema: 'shop', name: 'search' }, role: 'user' }, true))?.[0]).toBe(
      'not-supported',
    );
    const allowed = createFunctionPermission(tracked, db, { function: { schema: 'shop', name: 'search' }, role: 'user' }, false);
    expect(allowed.functions).toEqual([{ function: { schema: 'shop', name: 'search' }, permissions: [{ role: 'user' }] }]);
    expect(dropFunctionPermission(allowed, { function: { schema: 'shop', name: 'search' }, role: 'user' }).functions).toEqual([
      { function: { schema: 'shop', name: 'search' } },
    ]);
    expect(functionsReturning(tracked, db, item)).toEqual(tracked.functions);
    expect(untrackFunction(tracked, { schema: 'shop', name: 'search' })).toEqual(doc);
    expect('functions' in untrackFunction(tracked, { schema: 'shop', name: 'search' })).toBe(false);
  });

  test('a function whose table goes is dropped with the inconsistent objects', () => {
    const tracked = trackFunction(doc, db, { function: { schema: 'shop', name: 'search' } });
    expect(withoutInconsistent(tracked, introspectionOf([], [], [fn('search')]))).toEqual({ version: 2, tables: [] });
  });
});
