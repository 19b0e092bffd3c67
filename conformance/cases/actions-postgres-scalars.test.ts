// Custom types that name PostgreSQL's types as scalars (decision dec.action.postgres-scalars): a
// field or an action's argument of type uuid, timestamptz, bigint or date, as the engine allows; a
// name that is no type of the database (or one the engine calls otherwise, int4 for Int) is refused.
import { HttpResponse, http } from 'msw';
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { useMockServer } from '../harness/mockServer';
import { useTarget } from '../harness/target';

const target = useTarget();
const handlers = useMockServer();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });

const TYPES = {
  input_objects: [{ name: 'VisitInput', fields: [{ name: 'day', type: 'date!' }] }],
  objects: [
    {
      name: 'Visit',
      fields: [
        { name: 'id', type: 'uuid!' },
        { name: 'at', type: 'timestamptz' },
        { name: 'count', type: 'bigint' },
      ],
    },
  ],
};
const visit = (args: { name: string; type: string }[]) => ({
  name: 'visit',
  definition: { handler: `${handlers.url}/visit`, output_type: 'Visit', arguments: args },
});

afterEach(async () => {
  await target.reset();
});

test(
  covers(['dec.action.postgres-scalars', 'op.set_custom_types', 'op.create_action'], "custom types and actions take PostgreSQL's types as scalars"),
  async () => {
    expectResponse(await run('set_custom_types', TYPES), 200, ok);
    expectResponse(
      await run(
        'create_action',
        visit([
          { name: 'id', type: 'uuid!' },
          { name: 'input', type: 'VisitInput' },
        ]),
      ),
      200,
      ok,
    );
    const exported = (await run('export_metadata', {})).body as { custom_types: unknown; actions: unknown[] };
    expect(exported.custom_types).toEqual(TYPES);
    const r = await target.graphql(`{ __type(name: "Visit") { fields { name type { kind name ofType { kind name } } } } u: __type(name: "uuid") { kind } }`);
    expectResponse(r, 200, {
      data: {
        __type: {
          fields: [
            { name: 'id', type: { kind: 'NON_NULL', name: null, ofType: { kind: 'SCALAR', name: 'uuid' } } },
            { name: 'at', type: { kind: 'SCALAR', name: 'timestamptz', ofType: null } },
            { name: 'count', type: { kind: 'SCALAR', name: 'bigint', ofType: null } },
          ],
        },
        u: { kind: 'SCALAR' },
      },
    });
    handlers.use(http.post('/visit', () => HttpResponse.json({ id: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', at: '2026-01-02T03:04:05Z', count: 7 })));
    const answer = await target.graphql('mutation { visit(id: "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", input: {day: "2026-01-02"}) { id at count } }');
    expectResponse(answer, 200, { data: { visit: { id: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', at: '2026-01-02T03:04:05Z', count: 7 } } });
    expect(handlers.requestsTo('/visit').map((x) => (x.body as { input: unknown }).input)).toEqual([
      { id: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', input: { day: '2026-01-02' } },
    ]);
  },
);

test(
  covers(
    ['dec.action.postgres-scalars', 'err.constraint-violation.custom-types', 'err.validation-failed.action'],
    'a name that is no PostgreSQL type of the database is still refused',
  ),
  async () => {
    const refused = (error: string, code = 'validation-failed') => ({ path: '$.args', error, code });
    const objects = (type: string) => ({ objects: [{ name: 'Visit', fields: [{ name: 'id', type }] }] });
    expectResponse(
      await run('set_custom_types', objects('no_such_type')),
      400,
      refused('invalid custom types: field "id" of "Visit": the type "no_such_type" is not defined', 'constraint-violation'),
    );
    expectResponse(
      await run('set_custom_types', objects('int4')),
      400,
      refused('invalid custom types: field "id" of "Visit": the type "int4" is not defined', 'constraint-violation'),
    );
    expectResponse(await run('set_custom_types', objects('uuid')), 200, ok);
    expectResponse(
      await run('create_action', visit([{ name: 'n', type: 'int8' }])),
      400,
      refused('invalid action "visit": argument "n": the type "int8" is not defined'),
    );
    expect(((await run('export_metadata', {})).body as Record<string, unknown>).actions).toBeUndefined();
  },
);
