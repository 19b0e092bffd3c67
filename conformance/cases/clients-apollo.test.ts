// Apollo Client (its core, no React), unmodified, against the library project: queries with
// variables and fragments, a mutation, the normalised cache by __typename and primary key, and
// subscriptions over graphql-ws; and the same client written for the engine this API comes from
// (X-Hasura-* headers, a JWT under https://hasura.io/jwt/claims) against a server with
// ENGINE_GRAPHQL_COMPAT_HEADERS=hasura (decision dec.compat.headers).
import type { ApolloClient } from '@apollo/client';
import { parse as gql } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { caseNeeding } from '../harness/cases';
import { authorHeaders, librariesInstalled, setUpLibrary } from '../harness/clientProject';
import { signToken } from '../harness/jwt';
import { profileAvailable, useTarget, type Target } from '../harness/target';
import { socketUrl } from '../harness/websocket';

const target = useTarget({ profiles: ['compat-hasura'] });
const APOLLO = librariesInstalled(['@apollo/client', 'rxjs']);
const WITH_COMPAT = { met: APOLLO.met && profileAvailable('compat-hasura'), needs: `${APOLLO.needs}, and ENGINE_URL_COMPAT_HASURA` };

const BOOKS_SINCE = gql(`
  fragment BookFields on library_book {
    id
    title
    year
  }
  query BooksSince($since: Int!) {
    library_book(where: { year: { _gte: $since } }, order_by: { id: asc }) {
      ...BookFields
      author {
        id
        name
      }
    }
  }
`);

/** An application's client: HTTP for queries and mutations, graphql-ws for subscriptions, with its headers on both. */
function apollo(t: Target, headers: Record<string, string>): { client: ApolloClient; close(): Promise<void> } {
  const { ApolloClient, HttpLink, InMemoryCache, split } = require('@apollo/client') as typeof import('@apollo/client');
  const { GraphQLWsLink } = require('@apollo/client/link/subscriptions') as typeof import('@apollo/client/link/subscriptions');
  const { getMainDefinition } = require('@apollo/client/utilities') as typeof import('@apollo/client/utilities');
  const sockets = createClient({ url: socketUrl(t), webSocketImpl: WebSocket, connectionParams: { headers }, lazy: true, retryAttempts: 0 });
  const link = split(
    ({ query }) => {
      const definition = getMainDefinition(query);
      return definition.kind === 'OperationDefinition' && definition.operation === 'subscription';
    },
    new GraphQLWsLink(sockets),
    new HttpLink({ uri: `${t.url}/v1/graphql`, headers }),
  );
  const client = new ApolloClient({ link, cache: new InMemoryCache() });
  return {
    client,
    close: async () => {
      client.stop();
      await sockets.dispose();
    },
  };
}

beforeAll(async () => {
  await setUpLibrary(target);
});

caseNeeding(
  APOLLO,
  ['rule.perm.select.filter', 'dec.graphql.clients'],
  'Apollo Client: a query with variables and a fragment, normalised by __typename and id',
  async () => {
    const { client, close } = apollo(target, authorHeaders(target, '2'));
    try {
      const { data } = await client.query({ query: BOOKS_SINCE, variables: { since: 1980 } });
      expect(data).toEqual({
        library_book: [
          { __typename: 'library_book', id: 3, title: 'Guards! Guards!', year: 1989, author: { __typename: 'library_author', id: 2, name: 'Terry Pratchett' } },
          { __typename: 'library_book', id: 4, title: 'Night Watch', year: 2002, author: { __typename: 'library_author', id: 2, name: 'Terry Pratchett' } },
        ],
      });
      const store = client.cache.extract() as Record<string, unknown>;
      expect(Object.keys(store).sort()).toEqual(['ROOT_QUERY', 'library_author:2', 'library_book:3', 'library_book:4']);
      expect(store['library_book:3']).toEqual({
        __typename: 'library_book',
        id: 3,
        title: 'Guards! Guards!',
        year: 1989,
        author: { __ref: 'library_author:2' },
      });
      expect(store['library_author:2']).toEqual({ __typename: 'library_author', id: 2, name: 'Terry Pratchett' });
    } finally {
      await close();
    }
  },
);

caseNeeding(
  APOLLO,
  ['rule.perm.update.filter', 'rule.perm.insert.set', 'dec.graphql.clients'],
  'Apollo Client: mutations update the normalised entities the application renders',
  async () => {
    const { client, close } = apollo(target, authorHeaders(target, '1'));
    try {
      const list = gql(`
      query Mine {
        library_book(order_by: { id: asc }) {
          id
          title
        }
      }
    `);
      await client.query({ query: list });
      const rename = gql(`
      mutation Rename($id: Int!, $title: String!) {
        update_library_book_by_pk(pk_columns: { id: $id }, _set: { title: $title }) {
          id
          title
        }
      }
    `);
      const renamed = await client.mutate({ mutation: rename, variables: { id: 2, title: 'The Dispossessed: An Ambiguous Utopia' } });
      expect(renamed.data).toEqual({ update_library_book_by_pk: { __typename: 'library_book', id: 2, title: 'The Dispossessed: An Ambiguous Utopia' } });
      // The list the application shows again comes from the cache, with the entity the mutation changed.
      expect(client.readQuery({ query: list })).toEqual({
        library_book: [
          { __typename: 'library_book', id: 1, title: 'A Wizard of Earthsea' },
          { __typename: 'library_book', id: 2, title: 'The Dispossessed: An Ambiguous Utopia' },
        ],
      });
      const add = gql(`
      mutation Add($book: library_book_insert_input!) {
        insert_library_book_one(object: $book) {
          id
          title
          author {
            name
          }
        }
      }
    `);
      const added = await client.mutate({ mutation: add, variables: { book: { id: 10, title: 'The Lathe of Heaven', year: 1971 } } });
      expect(added.data).toEqual({
        insert_library_book_one: {
          __typename: 'library_book',
          id: 10,
          title: 'The Lathe of Heaven',
          author: { __typename: 'library_author', name: 'Ursula K. Le Guin' },
        },
      });
      expect((client.cache.extract() as Record<string, unknown>)['library_book:10']).toEqual(
        expect.objectContaining({ __typename: 'library_book', id: 10, title: 'The Lathe of Heaven' }),
      );
      expect(await target.sql('select author_id, title from library.book where id in (2, 10) order by id')).toEqual([
        { author_id: 1, title: 'The Dispossessed: An Ambiguous Utopia' },
        { author_id: 1, title: 'The Lathe of Heaven' },
      ]);
    } finally {
      await close();
      await target.sql("delete from library.book where id = 10; update library.book set title = 'The Dispossessed' where id = 2");
    }
  },
);

caseNeeding(
  APOLLO,
  ['dec.graphql.subscriptions', 'dec.graphql.clients'],
  'Apollo Client: a subscription over graphql-ws delivers the rows, and again after a change',
  async () => {
    const { client, close } = apollo(target, authorHeaders(target, '2'));
    try {
      const seen: unknown[] = [];
      const subscription = client
        .subscribe({
          query: gql(`
          subscription Titles {
            library_book(order_by: { id: asc }) {
              id
              title
            }
          }
        `),
        })
        .subscribe({ next: (result) => seen.push(result.data) });
      const waitFor = async (count: number) => {
        for (let i = 0; i < 200 && seen.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      };
      await waitFor(1);
      expect(seen[0]).toEqual({
        library_book: [
          { __typename: 'library_book', id: 3, title: 'Guards! Guards!' },
          { __typename: 'library_book', id: 4, title: 'Night Watch' },
        ],
      });
      await target.sql("insert into library.book values (11, 2, 'Small Gods', 1992)");
      await waitFor(2);
      expect(seen[1]).toEqual({
        library_book: [
          { __typename: 'library_book', id: 3, title: 'Guards! Guards!' },
          { __typename: 'library_book', id: 4, title: 'Night Watch' },
          { __typename: 'library_book', id: 11, title: 'Small Gods' },
        ],
      });
      subscription.unsubscribe();
    } finally {
      await close();
      await target.sql('delete from library.book where id = 11');
    }
  },
);

caseNeeding(
  WITH_COMPAT,
  ['dec.compat.headers', 'dec.graphql.clients'],
  'Apollo Client written for X-Hasura-* headers and a JWT under https://hasura.io/jwt/claims, against the compatibility setting',
  async () => {
    const t = target.profileTarget('compat-hasura')!;
    const viaHeaders = apollo(t, { 'x-hasura-admin-secret': t.adminSecret!, 'x-hasura-role': 'author', 'x-hasura-user-id': '1' });
    const claims = { 'x-hasura-allowed-roles': ['author'], 'x-hasura-default-role': 'author', 'x-hasura-user-id': '1' };
    const viaToken = apollo(t, { authorization: `Bearer ${await signToken({ 'https://hasura.io/jwt/claims': claims })}` });
    const leGuin = {
      library_book: [
        {
          __typename: 'library_book',
          id: 1,
          title: 'A Wizard of Earthsea',
          year: 1968,
          author: { __typename: 'library_author', id: 1, name: 'Ursula K. Le Guin' },
        },
        {
          __typename: 'library_book',
          id: 2,
          title: 'The Dispossessed',
          year: 1974,
          author: { __typename: 'library_author', id: 1, name: 'Ursula K. Le Guin' },
        },
      ],
    };
    try {
      expect((await viaHeaders.client.query({ query: BOOKS_SINCE, variables: { since: 1900 } })).data).toEqual(leGuin);
      expect((await viaToken.client.query({ query: BOOKS_SINCE, variables: { since: 1900 } })).data).toEqual(leGuin);
    } finally {
      await viaHeaders.close();
      await viaToken.close();
    }
  },
);
