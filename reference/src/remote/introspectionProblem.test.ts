// What the engine finds wrong in an introspection answer before graphql-js reads it, in its words.
import { introspectionProblem } from './validity';

const object = (name: string, interfaces: unknown[] = []) => ({ kind: 'OBJECT', name, fields: [{ name: 'id' }], interfaces });
const iface = (name: string, fields: unknown[] = [{ name: 'id' }]) => ({ kind: 'INTERFACE', name, fields });
const union = (name: string, members: unknown[]) => ({ kind: 'UNION', name, possibleTypes: members });
const ref = (kind: string, name: string | null) => ({ kind, name, ofType: null });

test('a valid answer has no problem', () => {
  expect(
    introspectionProblem({ types: [object('Query'), iface('Node'), object('A', [ref('INTERFACE', 'Node')]), union('U', [ref('OBJECT', 'A')])] }),
  ).toBeUndefined();
});

test('a member or interface without a name: the answer cannot be read, at its place', () => {
  expect(introspectionProblem({ types: [object('Query'), union('U', [ref('OBJECT', 'Query'), ref('NON_NULL', null)])] })).toBe(
    'Error in $.types[1].possibleTypes[1].name: parsing Name failed, expected String, but encountered Null',
  );
  expect(introspectionProblem({ types: [object('Query', [{ kind: 'INTERFACE' }])] })).toBe(
    'Error in $.types[0].interfaces[0].name: parsing Name failed, expected String, but encountered Null',
  );
});

test('interfaces and unions without members, members that are missing or not objects', () => {
  expect(introspectionProblem({ types: [object('Query'), iface('Node', [])] })).toBe("List of fields cannot be empty for interface 'Node'");
  expect(introspectionProblem({ types: [object('Query'), union('U', [])] })).toBe("List of member types cannot be empty for union type 'U'");
  expect(introspectionProblem({ types: [object('Query'), union('U', [ref('OBJECT', 'Gone')])] })).toBe(
    "Could not find type 'Gone', which is defined as a member type of Union 'U'",
  );
  expect(introspectionProblem({ types: [object('Query'), iface('Node'), union('U', [ref('OBJECT', 'Node')])] })).toBe(
    "Union type 'U' can only include object types. It cannot include 'Node'",
  );
  expect(introspectionProblem({ types: [object('Query', [ref('INTERFACE', 'Gone')])] })).toBe(
    "Could not find interface 'Gone' implemented by Object type 'Query'",
  );
  // An interface that names an object is no interface.
  expect(introspectionProblem({ types: [object('Query', [ref('INTERFACE', 'Query')])] })).toBe(
    "Could not find interface 'Query' implemented by Object type 'Query'",
  );
});

test('entries that are no objects at all are read without failing: a null type is left to graphql-js, a null member is unreadable', () => {
  expect(
    introspectionProblem({ types: [null, object('Query'), iface('Node'), object('A', [ref('INTERFACE', 'Node')]), union('U', [ref('OBJECT', 'A')])] }),
  ).toBeUndefined();
  expect(introspectionProblem({ types: [object('Query', [null])] })).toBe(
    'Error in $.types[0].interfaces[0].name: parsing Name failed, expected String, but encountered Null',
  );
  expect(introspectionProblem({ types: [null, union('U', [null])] })).toBe(
    'Error in $.types[1].possibleTypes[0].name: parsing Name failed, expected String, but encountered Null',
  );
});
