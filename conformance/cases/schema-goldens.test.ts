// The generated schema judged whole (decision dec.graphql.schema-goldens): for each fixture of
// fixtures/schema-goldens (its SQL and metadata), each role's introspected schema is compared with
// the golden SDL of the engine's schema for that role — types, fields, arguments, nullability,
// defaults, directives and descriptions — and every difference is reported as graphql-inspector
// names it. What the target does not serve yet is named by not-yet-covered spec items.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { PACKAGE_ROOT } from '../../reference/src/packageRoot';
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { describeChanges, goldenChanges, NOT_YET_SERVED, servedGaps } from '../harness/schemaGolden';
import { useTarget } from '../harness/target';

const target = useTarget();
const GOLDENS = join(PACKAGE_ROOT, 'fixtures', 'schema-goldens');
const read = (...path: string[]) => readFileSync(join(GOLDENS, ...path), 'utf8');

/** Each fixture: its directory, the roles whose schemas are judged, and the fixture whose setup.sql it runs (its own by default). */
const FIXTURES: { name: string; roles: string[]; covers: string[]; setup?: string }[] = [
  {
    name: 'articles',
    roles: ['admin', 'reader'],
    covers: [
      'dec.graphql.descriptions',
      'dec.graphql.object-relationship-nullability',
      'dec.graphql.aggregate-predicates',
      'dec.functions.argument-types',
      'dec.graphql.cached',
      'dec.graphql.update-many',
      'dec.graphql.nested-inserts',
    ],
  },
  {
    // The same tables under the default source's customization: root field and type name prefixes and suffixes.
    name: 'articles-customized',
    roles: ['admin', 'reader'],
    covers: ['dec.source.customization', 'dec.metadata.default-source'],
    setup: 'articles',
  },
  {
    // The same tables under the graphql-default naming convention (decision 048).
    name: 'articles-graphql-default',
    roles: ['admin', 'reader'],
    covers: ['dec.source.customization'],
    setup: 'articles',
  },
];

afterEach(async () => {
  // clear_metadata keeps the default source's description: null takes it away.
  await target.metadata({ type: 'replace_metadata', args: { version: 2, tables: [], default_source: null } });
  await target.reset();
  await target.sql('drop function if exists public.search_authors(text); drop table if exists public.rating, public.article, public.author cascade');
});

for (const fixture of FIXTURES) {
  for (const role of fixture.roles) {
    test(covers(fixture.covers, `the schema of role ${role} over fixture ${fixture.name} is the engine's, whole`), async () => {
      await target.sql(read(fixture.setup ?? fixture.name, 'setup.sql'));
      expectResponse(await target.metadata({ type: 'replace_metadata', args: JSON.parse(read(fixture.name, 'metadata.json')) as unknown }), 200);
      const headers = { ...target.adminHeaders(), 'x-engine-role': role };
      const answer = await target.graphql(getIntrospectionQuery({ descriptions: true }), undefined, { headers });
      const actual = buildClientSchema((answer.body as { data: IntrospectionQuery }).data);
      // A gap the target now serves is taken off the list, never left to hide a difference.
      expect(servedGaps(actual, NOT_YET_SERVED)).toEqual([]);
      const changes = await goldenChanges(read(fixture.name, `${role}.graphql`), actual, NOT_YET_SERVED);
      expect(describeChanges(changes)).toBe('');
    });
  }
}
