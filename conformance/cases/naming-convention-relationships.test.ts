// Relationships and streams of a source under graphql-default (decision 048): an array
// relationship's aggregate field and aggregate predicate, ordering by it, nested inserts through
// relationships, and a stream's batches, each by the convention's names.
import { caseNeeding } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { REQUIRES_SOURCE_DATABASE, useSourceDatabase } from '../harness/sourceDatabase';
import { useTarget } from '../harness/target';
import { openSocket } from '../harness/websocket';

const target = useTarget();
const second = useSourceDatabase();
const ok = { message: 'success' };
const run = (type: string, args: unknown) => target.metadata({ type, args });
const IDS = ['dec.source.customization', 'op.pg_add_source', 'op.create_array_relationship', 'op.create_object_relationship'];

afterEach(async () => {
  await target.reset();
  if (REQUIRES_SOURCE_DATABASE.met) await second.sql('drop table if exists public.blog_posts; drop table if exists public.authors');
});

/** `authors` and their `blog_posts` in a source under graphql-default, related both ways (`posts`, `author`). */
async function blog() {
  await second.sql(`create table public.authors (author_id serial primary key, full_name text not null);
    create table public.blog_posts (post_id serial primary key, author_id int references public.authors, is_published boolean not null);
    insert into public.authors (full_name) values ('Ann'), ('Bob');
    insert into public.blog_posts (author_id, is_published) values (1, true), (2, true), (2, false)`);
  const connection = { connection_info: { database_url: second.url } };
  expectResponse(await run('pg_add_source', { name: 'blog', configuration: connection, customization: { naming_convention: 'graphql-default' } }), 200, ok);
  for (const table of ['authors', 'blog_posts']) expectResponse(await run('pg_track_table', { source: 'blog', table }), 200, ok);
  const posts = { source: 'blog', table: 'authors', name: 'posts', using: { foreign_key_constraint_on: { table: 'blog_posts', column: 'author_id' } } };
  expectResponse(await run('pg_create_array_relationship', posts), 200, ok);
  expectResponse(
    await run('pg_create_object_relationship', { source: 'blog', table: 'blog_posts', name: 'author', using: { foreign_key_constraint_on: 'author_id' } }),
    200,
    ok,
  );
}

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  IDS,
  "an array relationship's aggregate field and predicate, and ordering by it, take the convention's names",
  async () => {
    await blog();
    const query = `{
    authors(orderBy: {postsAggregate: {count: DESC}}) { fullName posts(where: {isPublished: {_eq: true}}) { postId author { fullName } } postsAggregate { aggregate { count } } }
    prolific: authors(where: {postsAggregate: {count: {predicate: {_gt: 1}}}}) { authorId }
    allPublished: authors(where: {postsAggregate: {boolAnd: {arguments: isPublished, predicate: {_eq: true}}}}) { authorId }
  }`;
    expect((await target.graphql(query)).body).toEqual({
      data: {
        authors: [
          { fullName: 'Bob', posts: [{ postId: 2, author: { fullName: 'Bob' } }], postsAggregate: { aggregate: { count: 2 } } },
          { fullName: 'Ann', posts: [{ postId: 1, author: { fullName: 'Ann' } }], postsAggregate: { aggregate: { count: 1 } } },
        ],
        prolific: [{ authorId: 2 }],
        allPublished: [{ authorId: 1 }],
      },
    });
  },
);

caseNeeding(
  REQUIRES_SOURCE_DATABASE,
  IDS,
  "nested inserts go through relationships by the convention's names (data), answering affectedRows over every level",
  async () => {
    await blog();
    const mutation = `mutation {
    insertAuthorsOne(object: {fullName: "Cy", posts: {data: [{isPublished: true}, {isPublished: false}]}}) { authorId postsAggregate { aggregate { count } } }
    insertBlogPosts(objects: [{isPublished: true, author: {data: {fullName: "Dee"}}}]) { affectedRows returning { author { fullName } } }
  }`;
    expect((await target.graphql(mutation)).body).toEqual({
      data: {
        insertAuthorsOne: { authorId: 3, postsAggregate: { aggregate: { count: 2 } } },
        insertBlogPosts: { affectedRows: 2, returning: [{ author: { fullName: 'Dee' } }] },
      },
    });
    expect(
      await second.sql(
        'select a.full_name, count(p.*)::int as posts from public.authors a left join public.blog_posts p using (author_id) group by 1 order by 1',
      ),
    ).toEqual([
      { full_name: 'Ann', posts: 1 },
      { full_name: 'Bob', posts: 2 },
      { full_name: 'Cy', posts: 2 },
      { full_name: 'Dee', posts: 1 },
    ]);
  },
);

caseNeeding(REQUIRES_SOURCE_DATABASE, IDS, "a stream takes batchSize and a cursor's initialValue and ordering, and answers batch by batch", async () => {
  await blog();
  const socket = openSocket(target);
  try {
    const stream = socket.start(
      'subscription { blogPostsStream(batchSize: 2, cursor: {initialValue: {postId: 0}, ordering: ASC}, where: {isPublished: {_eq: true}}) { postId } }',
    );
    expect(await stream.take()).toEqual({ type: 'next', payload: { data: { blogPostsStream: [{ postId: 1 }, { postId: 2 }] } } });
    await second.sql('insert into public.blog_posts (author_id, is_published) values (1, false), (1, true)');
    expect(await stream.take(10_000)).toEqual({ type: 'next', payload: { data: { blogPostsStream: [{ postId: 5 }] } } });
    stream.stop();
  } finally {
    await socket.close();
  }
});
