// Property-based check of the PostGIS operators (decision dec.graphql.postgis): generated boolean
// expressions of _st_d_within, _st_within and _st_intersects (with _and, _or, _not) over points,
// given as `where` and as a role's permission ($st_… form), keep exactly the rows a plain
// TypeScript evaluation keeps. Points have integer coordinates; boxes and distances end in .5, so
// that no point lies on an edge or at the distance exactly.
import fc from 'fast-check';
import { caseNeeding } from '../harness/cases';
import { REQUIRES_POSTGIS, trackOnGisSource, usePostgisDatabase } from '../harness/postgisCluster';
import { useTarget } from '../harness/target';
import { generatedRuns } from '../harness/generatedRuns';

const target = useTarget();
const gis = usePostgisDatabase();
const RUNS = generatedRuns('ENGINE_FUZZ_RUNS', 5, 60);
const seed = Number(process.env.ENGINE_FUZZ_SEED ?? Date.now() % 2 ** 31);

type Point = { id: number; x: number; y: number };
type Box = { x0: number; y0: number; x1: number; y1: number };
type Exp =
  | { op: 'd_within'; x: number; y: number; distance: number }
  | { op: 'within' | 'intersects'; box: Box }
  | { op: 'and' | 'or'; of: Exp[] }
  | { op: 'not'; of: Exp };

const POINTS: Point[] = Array.from({ length: 40 }, (_, i) => ({ id: i + 1, x: (i * 7) % 13, y: (i * 5) % 11 }));
const half = fc.integer({ min: -1, max: 13 }).map((n) => n + 0.5);
const boxArb = fc.tuple(half, half, half, half).map(([a, b, c, d]) => ({ x0: Math.min(a, c), y0: Math.min(b, d), x1: Math.max(a, c), y1: Math.max(b, d) }));
const expArb: fc.Arbitrary<Exp> = fc.letrec<{ exp: Exp }>((tie) => ({
  exp: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({
      op: fc.constant('d_within' as const),
      x: fc.integer({ min: 0, max: 12 }),
      y: fc.integer({ min: 0, max: 10 }),
      distance: fc.integer({ min: 0, max: 13 }).map((n) => n + 0.5),
    }),
    fc.record({ op: fc.constantFrom('within' as const, 'intersects' as const), box: boxArb }),
    fc.record({ op: fc.constantFrom('and' as const, 'or' as const), of: fc.array(tie('exp'), { maxLength: 3 }) }),
    fc.record({ op: fc.constant('not' as const), of: tie('exp') }),
  ),
})).exp;

const polygon = (b: Box) => ({
  type: 'Polygon',
  coordinates: [
    [
      [b.x0, b.y0],
      [b.x1, b.y0],
      [b.x1, b.y1],
      [b.x0, b.y1],
      [b.x0, b.y0],
    ],
  ],
});

/** The expression in GraphQL's form (`_`) or the metadata's (`$`). */
function boolExp(e: Exp, p: '_' | '$'): Record<string, unknown> {
  switch (e.op) {
    case 'd_within':
      return { location: { [`${p}st_d_within`]: { distance: e.distance, from: { type: 'Point', coordinates: [e.x, e.y] } } } };
    case 'within':
    case 'intersects':
      return { location: { [`${p}st_${e.op}`]: polygon(e.box) } };
    case 'and':
    case 'or':
      return { [`${p}${e.op}`]: e.of.map((x) => boolExp(x, p)) };
    case 'not':
      return { [`${p}not`]: boolExp(e.of, p) };
  }
}

function holds(e: Exp, pt: Point): boolean {
  switch (e.op) {
    case 'd_within':
      return Math.hypot(pt.x - e.x, pt.y - e.y) <= e.distance;
    case 'within':
    case 'intersects':
      return pt.x > e.box.x0 && pt.x < e.box.x1 && pt.y > e.box.y0 && pt.y < e.box.y1;
    case 'and':
      return e.of.every((x) => holds(x, pt));
    case 'or':
      return e.of.some((x) => holds(x, pt));
    case 'not':
      return !holds(e.of, pt);
  }
}

const idsOf = (r: { body: unknown; text: string }) => {
  const body = r.body as { data?: { place: { id: number }[] } };
  return body.data ? body.data.place.map((p) => p.id) : r.text;
};

caseNeeding(
  REQUIRES_POSTGIS,
  ['dec.graphql.postgis', 'dec.permission.postgis'],
  `generated PostGIS filters keep exactly the rows the model keeps, in where and in permissions (${RUNS} expressions)`,
  async () => {
    await gis.sql('drop table if exists public.place cascade; create table public.place (id int primary key, location geometry)');
    for (const p of POINTS) await gis.sql('insert into public.place values ($1, ST_SetSRID(ST_MakePoint($2, $3), 4326))', [p.id, p.x, p.y]);
    await trackOnGisSource(target, gis.url, 'place');
    try {
      await fc.assert(
        fc.asyncProperty(expArb, async (e) => {
          const expected = POINTS.filter((p) => holds(e, p)).map((p) => p.id);
          const query = 'query ($w: place_bool_exp) { place(where: $w, order_by: {id: asc}) { id } }';
          const where = idsOf(await target.graphql(query, { w: boolExp(e, '_') }));
          if (JSON.stringify(where) !== JSON.stringify(expected))
            throw new Error(`where ${JSON.stringify(boolExp(e, '_'))}: ${JSON.stringify(where)}, the model keeps ${JSON.stringify(expected)}`);
          const permission = { columns: ['id'], filter: boolExp(e, '$') };
          const made = await target.metadata({ type: 'pg_create_select_permission', args: { source: 'gis', table: 'place', role: 'fuzz', permission } });
          if (made.status !== 200) throw new Error(`the permission ${JSON.stringify(permission)} was refused: ${made.text}`);
          try {
            const seen = idsOf(
              await target.graphql('{ place(order_by: {id: asc}) { id } }', undefined, { headers: { ...target.adminHeaders(), 'x-engine-role': 'fuzz' } }),
            );
            if (JSON.stringify(seen) !== JSON.stringify(expected))
              throw new Error(`permission ${JSON.stringify(permission.filter)}: ${JSON.stringify(seen)}, the model keeps ${JSON.stringify(expected)}`);
          } finally {
            await target.metadata({ type: 'pg_drop_select_permission', args: { source: 'gis', table: 'place', role: 'fuzz' } });
          }
        }),
        { numRuns: RUNS, seed, endOnFailure: false },
      );
    } finally {
      await target.reset();
    }
    process.stdout.write(`PostGIS fuzz: ${RUNS} generated expressions checked, seed ${seed}, no mismatch\n`);
  },
  120_000,
);
