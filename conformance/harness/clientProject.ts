// The project the cases of real client libraries drive (conformance/cases/clients-*.test.ts): an
// application's shape, authors and their books, and a role `author` that reads every author, and
// reads, adds and renames its own books (by X-Engine-User-Id).
import { branded } from './brand';
import type { Requirement, Target } from './target';

/** The headers of a request of the role `author` as the user `id` (none: without a user), in the suite's brand: what the clients are given. */
export const authorHeaders = (target: Target, id?: string): Record<string, string> =>
  branded({ ...target.adminHeaders(), 'x-engine-role': 'author', ...(id === undefined ? {} : { 'x-engine-user-id': id }) });

/**
 * The client libraries the cases drive are development dependencies: a checkout has them, an
 * installed package may not, and reports those cases as not run.
 */
export function librariesInstalled(names: readonly string[]): Requirement {
  const missing = names.filter((name) => {
    try {
      require.resolve(name);
      return false;
    } catch {
      return true;
    }
  });
  return { met: missing.length === 0, needs: `the client libraries ${missing.join(', ')} (npm install ${missing.join(' ')})` };
}

export const LIBRARY_SQL = `
  drop schema if exists library cascade;
  create schema library;
  create table library.author (id integer primary key, name text not null);
  create table library.book (
    id integer primary key,
    author_id integer not null references library.author (id),
    title text not null,
    year integer not null
  );
  insert into library.author values (1, 'Ursula K. Le Guin'), (2, 'Terry Pratchett');
  insert into library.book values
    (1, 1, 'A Wizard of Earthsea', 1968), (2, 1, 'The Dispossessed', 1974),
    (3, 2, 'Guards! Guards!', 1989), (4, 2, 'Night Watch', 2002);`;

const author = { schema: 'library', name: 'author' };
const book = { schema: 'library', name: 'book' };
const own = { author_id: { _eq: 'X-Engine-User-Id' } };

export const LIBRARY_METADATA = {
  type: 'replace_metadata',
  args: {
    version: 2,
    tables: [
      {
        table: author,
        array_relationships: [{ name: 'books', using: { foreign_key_constraint_on: { table: book, column: 'author_id' } } }],
        select_permissions: [{ role: 'author', permission: { columns: ['id', 'name'], filter: {} } }],
      },
      {
        table: book,
        object_relationships: [{ name: 'author', using: { foreign_key_constraint_on: 'author_id' } }],
        insert_permissions: [{ role: 'author', permission: { columns: ['id', 'title', 'year'], check: {}, set: { author_id: 'X-Engine-User-Id' } } }],
        select_permissions: [{ role: 'author', permission: { columns: ['id', 'author_id', 'title', 'year'], filter: own } }],
        update_permissions: [{ role: 'author', permission: { columns: ['title'], filter: own } }],
      },
    ],
  },
};

/** The library's tables, rows and metadata on `target`, as they were before any case changed them. */
export async function setUpLibrary(target: Target): Promise<void> {
  await target.sql(LIBRARY_SQL);
  const r = await target.metadata(LIBRARY_METADATA);
  if (r.status !== 200) throw new Error(`the library's metadata was refused: ${r.status} ${r.text}`);
}
