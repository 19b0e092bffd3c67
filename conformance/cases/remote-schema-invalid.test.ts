// A remote whose introspected schema is not one the engine can build is refused in the engine's
// own words, with nothing before them (decision dec.remote-schema.valid-schema): interfaces and
// unions without members, members that are not there or not objects, a member that is no name.
import type { IntrospectionSchema, IntrospectionType } from 'graphql';
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { introspectionServer, useMockServer } from '../harness/mockServer';
import { useTarget } from '../harness/target';

const target = useTarget();
const remote = useMockServer();
const run = (type: string, args: unknown) => target.metadata({ type, args });
const exported = async () => (await run('export_metadata', {})).body as Record<string, unknown>;
const refused = (error: string) => ({ path: '$.args', error, code: 'remote-schema-error' });
const add = (name: string, path: string) => run('add_remote_schema', { name, definition: { url: `${remote.url}${path}` } });

const CHARACTERS = `
  type Query { hero: Character, search: CharacterSearchResult }
  interface Character { id: ID! }
  type Human implements Character { id: ID! }
  type Droid implements Character { id: ID! }
  union CharacterSearchResult = Human | Droid
`;
/** The introspection with one of its types changed. */
const changing =
  (name: string, change: (type: Record<string, unknown>) => Record<string, unknown>) =>
  (schema: IntrospectionSchema): IntrospectionSchema => ({
    ...schema,
    types: schema.types.map((t) => (t.name === name ? (change(t as unknown as Record<string, unknown>) as unknown as IntrospectionType) : t)),
  });

beforeEach(async () => {
  await target.reset();
  expectResponse(await run('clear_metadata', {}), 200, { message: 'success' });
});

test(
  covers(['dec.remote-schema.valid-schema', 'err.remote-schema-error.invalid-schema'], 'an interface without fields, a union without member types'),
  async () => {
    remote.use(introspectionServer('/empty-interface', CHARACTERS.replace('interface Character { id: ID! }', 'interface Character')));
    expectResponse(await add('empty-interface', '/empty-interface'), 400, refused("List of fields cannot be empty for interface 'Character'"));
    remote.use(introspectionServer('/empty-union', CHARACTERS.replace('union CharacterSearchResult = Human | Droid', 'union CharacterSearchResult')));
    expectResponse(await add('empty-union', '/empty-union'), 400, refused("List of member types cannot be empty for union type 'CharacterSearchResult'"));
    expect(await exported()).toEqual({ version: 2, tables: [] });
  },
);

test(
  covers(
    ['dec.remote-schema.valid-schema', 'err.remote-schema-error.invalid-schema'],
    'a member type or an interface that is not there, an interface as a member',
  ),
  async () => {
    const rename = (type: Record<string, unknown>, key: string, name: string) => ({
      ...type,
      [key]: [{ kind: key === 'interfaces' ? 'INTERFACE' : 'OBJECT', name, ofType: null }],
    });
    const cases: [string, (schema: IntrospectionSchema) => unknown, string][] = [
      [
        'unknown-member',
        changing('CharacterSearchResult', (t) => rename(t, 'possibleTypes', 'Unknown0')),
        "Could not find type 'Unknown0', which is defined as a member type of Union 'CharacterSearchResult'",
      ],
      [
        'unknown-interface',
        changing('Droid', (t) => rename(t, 'interfaces', 'UnknownIFace')),
        "Could not find interface 'UnknownIFace' implemented by Object type 'Droid'",
      ],
      [
        'interface-member',
        changing('CharacterSearchResult', (t) => rename(t, 'possibleTypes', 'Character')),
        "Union type 'CharacterSearchResult' can only include object types. It cannot include 'Character'",
      ],
    ];
    for (const [name, edit, error] of cases) {
      remote.use(introspectionServer(`/${name}`, CHARACTERS, edit));
      expectResponse(await add(name, `/${name}`), 400, refused(error));
    }
    expect(await exported()).toEqual({ version: 2, tables: [] });
  },
);

test(
  covers(
    ['dec.remote-schema.valid-schema', 'err.remote-schema-error.invalid-schema'],
    'a member type that is a wrapped type has no name: the answer cannot be read',
  ),
  async () => {
    const wrapped = (schema: IntrospectionSchema) => {
      const union = schema.types.find((t) => t.name === 'CharacterSearchResult')!;
      const member = { kind: 'NON_NULL', name: null, ofType: { kind: 'OBJECT', name: 'Human', ofType: null } };
      // The union second, so that its place in the answer is known.
      return { ...schema, types: [schema.types[0], { ...union, possibleTypes: [member] }, ...schema.types.slice(1).filter((t) => t !== union)] };
    };
    remote.use(introspectionServer('/wrapped-member', CHARACTERS, wrapped));
    expectResponse(
      await add('wrapped-member', '/wrapped-member'),
      400,
      refused('Error in $.types[1].possibleTypes[0].name: parsing Name failed, expected String, but encountered Null'),
    );
    expect(await exported()).toEqual({ version: 2, tables: [] });
  },
);
