// A catalog changed under a running server (a newer server migrated it, or it was made again):
// every metadata request is refused with the catalog's own refusal, and nothing is written.
import { useTarget } from '../../../conformance/harness/target';

const target = useTarget();

const trackAnswer = async () => {
  const r = await target.metadata({ type: 'track_table', args: { table: { schema: 'public', name: 'catalog_changed' } } });
  return { status: r.status, body: r.body };
};

beforeEach(async () => {
  await target.reset();
  await target.sql('drop table if exists public.catalog_changed; create table public.catalog_changed (id int primary key)');
});
afterEach(async () => {
  await target.reset();
  await target.sql('drop table if exists public.catalog_changed');
});

test.each([
  ['99', { path: '$', error: 'unsupported version : 99', code: 'not-supported' }],
  ['1.5', { path: '$', error: 'the state seems to be initialised already. you may need to migrate from this version: 1.5', code: 'already-initialised' }],
])(
  'a catalog of version %s found by a metadata request refuses it, and nothing is written [err.not-supported.catalog-version err.already-initialised]',
  async (version, refusal) => {
    const own = ((await target.sql('select version from engine_catalog.engine_version')) as { version: string }[])[0]!.version;
    const before = await target.sql('select metadata, resource_version from engine_catalog.engine_metadata');
    await target.sql('update engine_catalog.engine_version set version = $1', [version]);
    try {
      expect(await trackAnswer()).toEqual({ status: 400, body: refusal });
      expect(await target.sql('select metadata, resource_version from engine_catalog.engine_metadata')).toEqual(before);
    } finally {
      await target.sql('update engine_catalog.engine_version set version = $1', [own]);
    }
    expect(await trackAnswer()).toEqual({ status: 200, body: { message: 'success' } });
  },
);
