// urql (its core) and graphql-request, unmodified, against the library project: what an
// application renders from their answers, and the errors as they report them.
import { parse as gql } from 'graphql';
import { branded } from '../harness/brand';
import { caseNeeding } from '../harness/cases';
import { authorHeaders, librariesInstalled, setUpLibrary } from '../harness/clientProject';
import { useTarget } from '../harness/target';

const target = useTarget();
const URQL = librariesInstalled(['@urql/core']);
const GRAPHQL_REQUEST = librariesInstalled(['graphql-request']);
const urql = () => require('@urql/core') as typeof import('@urql/core');

const AUTHORS = gql(`
  query Authors($min: Int!) {
    library_author(order_by: { id: asc }) {
      name
      books(where: { year: { _gte: $min } }, order_by: { year: asc }) {
        title
        year
      }
    }
  }
`);

beforeAll(async () => {
  await setUpLibrary(target);
});

caseNeeding(
  URQL,
  ['rule.perm.select.filter', 'dec.graphql.clients'],
  'urql: a query with variables, a mutation, and the query again after its cache learns of the change',
  async () => {
    const { Client, cacheExchange, fetchExchange } = urql();
    const client = new Client({
      url: `${target.url}/v1/graphql`,
      exchanges: [cacheExchange, fetchExchange],
      fetchOptions: { headers: authorHeaders(target, '2') },
    });
    const first = await client.query(AUTHORS, { min: 1990 }).toPromise();
    expect([first.error, first.data]).toEqual([
      undefined,
      {
        library_author: [
          { __typename: 'library_author', name: 'Ursula K. Le Guin', books: [] },
          { __typename: 'library_author', name: 'Terry Pratchett', books: [{ __typename: 'library_book', title: 'Night Watch', year: 2002 }] },
        ],
      },
    ]);
    const added = await client
      .mutation(
        gql(`
        mutation Add($title: String!, $year: Int!) {
          insert_library_book_one(object: { id: 12, title: $title, year: $year }) {
            id
            title
          }
        }
      `),
        { title: 'Thud!', year: 2005 },
      )
      .toPromise();
    expect([added.error, added.data]).toEqual([undefined, { insert_library_book_one: { __typename: 'library_book', id: 12, title: 'Thud!' } }]);
    // urql's document cache drops the answers that hold library_book: the same query goes to the server again.
    const again = await client.query(AUTHORS, { min: 1990 }).toPromise();
    expect(again.data).toEqual({
      library_author: [
        { __typename: 'library_author', name: 'Ursula K. Le Guin', books: [] },
        {
          __typename: 'library_author',
          name: 'Terry Pratchett',
          books: [
            { __typename: 'library_book', title: 'Night Watch', year: 2002 },
            { __typename: 'library_book', title: 'Thud!', year: 2005 },
          ],
        },
      ],
    });
    await target.sql('delete from library.book where id = 12');
  },
);

caseNeeding(
  URQL,
  ['err.invalid-headers.missing', 'dec.graphql.clients'],
  'urql reports a refused permission as a CombinedError with the GraphQL error',
  async () => {
    const { Client, fetchExchange } = urql();
    const client = new Client({
      url: `${target.url}/v1/graphql`,
      exchanges: [fetchExchange],
      fetchOptions: { headers: authorHeaders(target) },
    });
    const r = await client.query(AUTHORS, { min: 0 }).toPromise();
    expect(r.data).toBeUndefined();
    expect(r.error?.graphQLErrors.map((e) => [e.message, e.extensions])).toEqual([
      [branded('missing header : X-Engine-User-Id'), { path: '$', code: 'invalid-headers' }],
    ]);
  },
);

caseNeeding(
  GRAPHQL_REQUEST,
  ['rule.perm.select.filter', 'err.invalid-headers.missing', 'dec.graphql.clients'],
  'graphql-request: request and rawRequest answer the data; an error is a ClientError',
  async () => {
    // Its types are an ECMAScript module's; the package loads as CommonJS here too.
    const { ClientError, GraphQLClient } = await import('graphql-request');
    const client = new GraphQLClient(`${target.url}/v1/graphql`, { headers: authorHeaders(target, '1') });
    expect(await client.request(AUTHORS, { min: 1970 })).toEqual({
      library_author: [
        { name: 'Ursula K. Le Guin', books: [{ title: 'The Dispossessed', year: 1974 }] },
        { name: 'Terry Pratchett', books: [] },
      ],
    });
    const raw = await client.rawRequest<{ library_book_by_pk: unknown }>('query One($id: Int!) { library_book_by_pk(id: $id) { title } }', { id: 1 });
    expect([raw.status, raw.data]).toEqual([200, { library_book_by_pk: { title: 'A Wizard of Earthsea' } }]);
    const anonymous = new GraphQLClient(`${target.url}/v1/graphql`, { headers: authorHeaders(target) });
    const error = await anonymous.request(AUTHORS, { min: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect((error as InstanceType<typeof ClientError>).response.errors).toEqual([
      { message: branded('missing header : X-Engine-User-Id'), extensions: { path: '$', code: 'invalid-headers' } },
    ]);
  },
);
