import { useDatabase } from '../../../conformance/harness/database';
import { CATALOG_VERSION, CatalogError, checkVersion, ensureCatalog, readMetadata } from './catalog';

const db = useDatabase('each');

const catalogErrorOf = async (work: () => Promise<unknown>) => {
  try {
    await work();
  } catch (error) {
    if (error instanceof CatalogError) return error.detail.toBody();
    throw error;
  }
  throw new Error('expected a CatalogError');
};

describe('catalog', () => {
  test('a new database gets the catalog, with empty metadata, and a second start changes nothing', async () => {
    await ensureCatalog(db.client);
    await ensureCatalog(db.client);
    expect((await db.client.query('select version from engine_catalog.engine_version')).rows).toEqual([{ version: CATALOG_VERSION }]);
    expect(await readMetadata(db.client)).toEqual({ document: { version: 2, tables: [] }, resourceVersion: 1 });
  });

  test('a catalog schema the server did not make is refused [err.already-initialised]', async () => {
    await db.client.query('create schema engine_catalog');
    expect(await catalogErrorOf(() => ensureCatalog(db.client))).toEqual({
      path: '$',
      error: 'the state seems to be initialised already. you may need to migrate from this version: unknown',
      code: 'already-initialised',
    });
  });

  test('a catalog newer than the server is refused, and left as it is [err.not-supported.catalog-version]', async () => {
    await ensureCatalog(db.client);
    await db.client.query(`update engine_catalog.engine_version set version = '99'`);
    expect(await catalogErrorOf(() => ensureCatalog(db.client))).toEqual({ path: '$', error: 'unsupported version : 99', code: 'not-supported' });
    expect((await db.client.query('select version from engine_catalog.engine_version')).rows).toEqual([{ version: '99' }]);
  });

  test('checkVersion takes the versions it can migrate from', () => {
    expect(checkVersion('0')).toBe(0);
    expect(checkVersion(CATALOG_VERSION)).toBe(Number(CATALOG_VERSION));
    expect(() => checkVersion('1.5')).toThrow('the state seems to be initialised already. you may need to migrate from this version: 1.5');
  });
});
