// What is made of a remote's schema and a key is made once per schema and key.
import { buildSchema } from 'graphql';
import { perSchema } from './perSchema';

test('made once for each schema and key, again for another schema or another key', () => {
  const made: string[] = [];
  const of = perSchema((schema, key) => {
    made.push(`${String(schema.getQueryType())} ${key}`);
    return { key };
  });
  const one = buildSchema('type Query { a: Int }');
  const other = buildSchema('type Root { a: Int } schema { query: Root }');
  const first = of(one, 'k');
  expect(of(one, 'k')).toBe(first);
  expect(first).toEqual({ key: 'k' });
  expect(of(one, 'l')).toEqual({ key: 'l' });
  expect(of(one, 'k')).toBe(first);
  expect(of(other, 'k')).not.toBe(first);
  expect(made).toEqual(['Query k', 'Query l', 'Root k']);
});

test('a value made falsy is kept too', () => {
  let calls = 0;
  const of = perSchema(() => (calls++, 0));
  const schema = buildSchema('type Query { a: Int }');
  expect([of(schema, 'k'), of(schema, 'k'), calls]).toEqual([0, 0, 1]);
});
