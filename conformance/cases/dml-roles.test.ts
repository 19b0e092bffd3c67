// The legacy DML of /v1/query sent by a role other than admin: the role's permissions apply as in
// GraphQL, and SPEC.md §7.2's permission-denied and upsert messages name what it may not do.
import { branded } from '../harness/brand';
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql, musicMetadata, musicTable } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();
const artist = musicTable('artist');
const album = musicTable('album');
const track = musicTable('track');

const as = (role: string, userId?: string) => ({
  ...target.adminHeaders(),
  'x-engine-role': role,
  ...(userId === undefined ? {} : { 'x-engine-user-id': userId }),
});
const dml = (type: string, args: Record<string, unknown>, headers: Record<string, string> = as('user', '1'), endpoint = '/v1/query') =>
  target.metadata({ type, args }, { endpoint, headers });
const denied = (path: string, error: string) => ({ path, error, code: 'permission-denied' });
const albumsOver90 = async () => (await target.sql('select id, title, artist_id, year from music.album where id >= 90 order by id')) as unknown[];

beforeAll(async () => {
  await target.sql(fixtureSql('music'));
});
beforeEach(async () => {
  await target.sql('delete from music.album where id >= 90');
  const permission = (type: string, table: unknown, role: string, p: Record<string, unknown>) => ({
    type: `create_${type}_permission`,
    args: { table, role, permission: p },
  });
  const base = musicMetadata(['artist', 'album', 'track'], ['album.artist', 'artist.albums']);
  expectResponse(
    await target.metadata({
      type: 'bulk',
      args: [
        ...base.args,
        permission('select', artist, 'user', { columns: ['id', 'name'], filter: {} }),
        permission('select', album, 'user', { columns: ['id', 'title', 'artist_id', 'year'], filter: { year: { _gt: 2000 } } }),
        permission('insert', album, 'user', { columns: ['id', 'title', 'year'], check: { year: { _gte: 2000 } }, set: { artist_id: 'X-Engine-User-Id' } }),
        permission('update', album, 'user', { columns: ['title'], filter: { artist_id: 'X-Engine-User-Id' } }),
        permission('select', album, 'writer', { columns: ['id', 'title'], filter: {} }),
        permission('insert', album, 'writer', { columns: ['id', 'title', 'artist_id'], check: {} }),
      ],
    }),
    200,
  );
});

test(covers(['dec.dml.roles', 'op.select'], 'a role selects the rows and columns its select permission allows; * means those columns'), async () => {
  expectResponse(await dml('select', { table: album, columns: ['*'], order_by: ['id'] }), 200, [
    { id: 10, title: 'First Light', artist_id: 1, year: 2012 },
    { id: 11, title: 'Long Night', artist_id: 1, year: 2015 },
    { id: 21, title: 'Second Wind', artist_id: 2, year: 2004 },
  ]);
  expectResponse(await dml('count', { table: album }), 200, { count: 3 });
  expectResponse(await dml('count', { table: album }, as('admin')), 200, { count: 4 });
});

test(covers(['dec.dml.roles', 'err.permission-denied.column'], 'a column outside the select permission is refused wherever it is named'), async () => {
  const error = denied('$.args.columns[1]', 'role "user" does not have permission to select column "price"');
  expectResponse(await dml('select', { table: album, columns: ['id', 'price'] }), 400, error);
  expectResponse(
    await dml('select', { table: album, columns: ['id'], where: { price: { $gt: 1 } } }),
    400,
    denied('$.args.where', 'role "user" does not have permission to select column "price"'),
  );
  expectResponse(
    await dml('select', { table: album, columns: ['id'], order_by: ['-price'] }),
    400,
    denied('$.args.order_by', 'role "user" does not have permission to select column "price"'),
  );
  expectResponse(
    await dml('count', { table: artist, distinct: ['country'] }),
    400,
    denied('$.args.distinct[0]', 'role "user" does not have permission to select column "country"'),
  );
  // Also as the other side of a column comparison, in either spelling.
  for (const where of [{ year: { $cgt: 'price' } }, { year: { _clte: 'price' } }]) {
    expectResponse(await dml('count', { table: album, where }), 400, denied('$.args.where', 'role "user" does not have permission to select column "price"'));
  }
});

test(covers(['dec.dml.roles', 'err.permission-denied.select'], 'a table the role may not select from is refused, also behind a relationship'), async () => {
  expectResponse(await dml('select', { table: track, columns: ['id'] }), 400, denied('$.args', 'select on "music.track" for role "user" is not allowed.'));
  expectResponse(await dml('count', { table: track }), 400, denied('$.args', 'select on "music.track" for role "user" is not allowed.'));
  expectResponse(
    await dml('select', { table: album, columns: ['id'] }, as('nobody')),
    400,
    denied('$.args', 'select on "music.album" for role "nobody" is not allowed.'),
  );
  expectResponse(
    await dml('select', { table: album, columns: ['id', { name: 'artist', columns: ['name'] }] }, as('writer')),
    400,
    denied('$.args.columns[1]', 'select on "music.artist" for role "writer" is not allowed.'),
  );
  expectResponse(
    await dml('select', { table: album, columns: ['id'], where: { artist: { name: 'x' } } }, as('writer')),
    400,
    denied('$.args.where', 'select on "music.artist" for role "writer" is not allowed.'),
  );
});

test(covers(['dec.dml.roles'], 'rows reached through relationships are only those the role may read: a filter cannot probe hidden rows'), async () => {
  // Album 20 (1999) is hidden from user: its artist must not be found through it.
  const probe = { table: artist, columns: ['id'], where: { albums: { year: { $lt: 2000 } } } };
  expectResponse(await dml('select', probe, as('admin')), 200, [{ id: 2 }]);
  expectResponse(await dml('select', probe), 200, []);
  expectResponse(await dml('select', { table: artist, columns: ['id', { name: 'albums', columns: ['id'], order_by: ['id'] }], where: { id: 2 } }), 200, [
    { id: 2, albums: [{ id: 21 }] },
  ]);
  expectResponse(await dml('select', { table: artist, columns: ['id'], where: { _exists: { _table: album, _where: { year: 1999 } } } }), 200, []);
});

test(
  covers(['dec.dml.roles', 'op.insert', 'err.permission-error.check-failed'], 'an insert takes the presets and must pass the check, or nothing is kept'),
  async () => {
    expectResponse(await dml('insert', { table: album, objects: [{ id: 90, title: 'New', year: 2020 }], returning: ['id', 'artist_id'] }), 200, {
      affected_rows: 1,
      returning: [{ id: 90, artist_id: 1 }],
    });
    expectResponse(
      await dml('insert', {
        table: album,
        objects: [
          { id: 91, title: 'Ok', year: 2021 },
          { id: 92, title: 'Old', year: 1990 },
        ],
      }),
      400,
      {
        path: '$.args',
        error: 'check constraint of an insert/update permission has failed',
        code: 'permission-error',
      },
    );
    expect(await albumsOver90()).toEqual([{ id: 90, title: 'New', artist_id: 1, year: 2020 }]);
  },
);

test(
  covers(
    ['dec.dml.roles', 'err.permission-denied.column', 'err.permission-denied.operation'],
    'an insert may set only the columns of the insert permission, on tables it may insert into',
  ),
  async () => {
    expectResponse(
      await dml('insert', { table: album, objects: [{ id: 93, title: 'G', year: 2020, genre: 'pop' }] }),
      400,
      denied('$.args.objects', 'role "user" does not have permission to insert column "genre"'),
    );
    expectResponse(
      await dml('insert', { table: album, objects: [{ id: 93, title: 'P', year: 2020, artist_id: 2 }] }),
      400,
      denied('$.args.objects', 'role "user" does not have permission to insert column "artist_id"'),
    );
    expectResponse(
      await dml('insert', { table: artist, objects: [{ id: 93, name: 'A' }] }),
      400,
      denied('$.args', 'insert on "music.artist" for role "user" is not allowed'),
    );
    expect(await albumsOver90()).toEqual([]);
  },
);

test(covers(['dec.dml.roles', 'err.unexpected-payload.upsert-not-allowed'], 'an upsert needs an update permission'), async () => {
  const upsert = { table: album, objects: [{ id: 10, title: 'Taken', artist_id: 1 }], on_conflict: { action: 'update', constraint_on: ['id'] } };
  expectResponse(await dml('insert', upsert, as('writer')), 400, {
    path: '$.args.on_conflict',
    error: 'upsert is not allowed for role "writer"',
    code: 'unexpected-payload',
  });
  expectResponse(await dml('insert', { ...upsert, on_conflict: { action: 'ignore' } }, as('writer')), 200, { affected_rows: 0 });
  expect(await target.sql('select title from music.album where id = 10')).toEqual([{ title: 'First Light' }]);
});

test(
  covers(
    ['dec.dml.roles', 'op.update', 'err.permission-denied.column', 'rule.perm.update.columns:allowed', 'rule.perm.update.columns:refused'],
    'an update changes only the rows of its filter and the columns it lists',
  ),
  async () => {
    expectResponse(await dml('update', { table: album, where: { id: { $in: [10, 20] } }, $set: { title: 'Renamed' }, returning: ['id', 'title'] }), 200, {
      affected_rows: 1,
      returning: [{ id: 10, title: 'Renamed' }],
    });
    expectResponse(
      await dml('update', { table: album, where: { id: 10 }, $inc: { year: 1 } }),
      400,
      denied('$.args.$inc', 'role "user" does not have permission to update column "year"'),
    );
    expect(await target.sql('select id, title, year from music.album where id in (10, 20) order by id')).toEqual([
      { id: 10, title: 'Renamed', year: 2012 },
      { id: 20, title: 'Horns Up', year: 1999 },
    ]);
    await target.sql(`update music.album set title = 'First Light' where id = 10`);
  },
);

test(
  covers(
    ['dec.dml.roles', 'rule.perm.select.limit', 'rule.perm.update.check:allowed', 'rule.perm.update.check:refused', 'rule.service.admin-unrestricted'],
    "the select limit caps a role's rows whatever it asks for, an update must leave its rows passing the check, and admin has neither",
  ),
  async () => {
    try {
      expectResponse(
        await target.metadata({
          type: 'bulk',
          args: [
            { type: 'create_select_permission', args: { table: album, role: 'capped', permission: { columns: ['id'], filter: {}, limit: 2 } } },
            {
              type: 'create_update_permission',
              args: { table: album, role: 'editor', permission: { columns: ['year'], filter: {}, check: { year: { _gte: 2000 } } } },
            },
            { type: 'create_select_permission', args: { table: album, role: 'editor', permission: { columns: ['id', 'year'], filter: {} } } },
          ],
        }),
        200,
      );
      expectResponse(await dml('select', { table: album, columns: ['id'], order_by: ['id'] }, as('capped')), 200, [{ id: 10 }, { id: 11 }]);
      expectResponse(await dml('select', { table: album, columns: ['id'], order_by: ['-id'], limit: 3 }, as('capped')), 200, [{ id: 21 }, { id: 20 }]);
      expectResponse(await dml('select', { table: album, columns: ['id'], order_by: ['id'], limit: 1 }, as('capped')), 200, [{ id: 10 }]);
      expectResponse(await dml('select', { table: album, columns: ['id'], order_by: ['id'] }, as('admin')), 200, [
        { id: 10 },
        { id: 11 },
        { id: 20 },
        { id: 21 },
      ]);
      // Album 20 is from 1999: moving it to 2001 passes the check; moving 10 back to 1999 does not, and changes nothing.
      expectResponse(await dml('update', { table: album, where: { id: 20 }, $set: { year: 2001 }, returning: ['id', 'year'] }, as('editor')), 200, {
        affected_rows: 1,
        returning: [{ id: 20, year: 2001 }],
      });
      expectResponse(await dml('update', { table: album, where: { id: { $in: [10, 11] } }, $inc: { year: -13 } }, as('editor')), 400, {
        path: '$.args',
        error: 'check constraint of an insert/update permission has failed',
        code: 'permission-error',
      });
      expectResponse(await dml('update', { table: album, where: { id: 10 }, $set: { year: 1990 }, returning: ['year'] }, as('admin')), 200, {
        affected_rows: 1,
        returning: [{ year: 1990 }],
      });
      expect(await target.sql('select id, year from music.album order by id')).toEqual([
        { id: 10, year: 1990 },
        { id: 11, year: 2015 },
        { id: 20, year: 2001 },
        { id: 21, year: 2004 },
      ]);
    } finally {
      await target.sql('update music.album set year = 2012 where id = 10; update music.album set year = 1999 where id = 20');
    }
  },
);

test(covers(['dec.dml.roles', 'err.permission-denied.operation'], 'delete without a delete permission is refused and deletes nothing'), async () => {
  expectResponse(await dml('delete', { table: album, where: {} }), 400, denied('$.args', 'delete on "music.album" for role "user" is not allowed'));
  expectResponse(
    await dml('update', { table: album, where: {}, $set: { title: 'x' } }, as('writer')),
    400,
    denied('$.args', 'update on "music.album" for role "writer" is not allowed'),
  );
  expect(await target.sql('select count(*)::int as n from music.album')).toEqual([{ n: 4 }]);
});

test(covers(['dec.dml.roles', 'err.invalid-headers.missing'], 'a permission naming a session variable the request lacks is refused'), async () => {
  expectResponse(await dml('update', { table: album, where: { id: 10 }, $set: { title: 'x' } }, as('user')), 400, {
    path: '$',
    error: branded('missing header : X-Engine-User-Id'),
    code: 'invalid-headers',
  });
});

test(
  covers(['dec.dml.roles', 'rule.auth.1', 'err.access-denied.admin-only'], 'a role may send DML and bulks of DML only, at the query endpoints only'),
  async () => {
    expectResponse(
      await target.metadata(
        {
          type: 'bulk',
          args: [
            { type: 'count', args: { table: album } },
            { type: 'count', args: { table: artist } },
          ],
        },
        { endpoint: '/v1/query', headers: as('user') },
      ),
      200,
      [{ count: 3 }, { count: 3 }],
    );
    const adminOnly = { path: '$.args', error: 'restricted access : admin only', code: 'access-denied' };
    expectResponse(
      await target.metadata(
        {
          type: 'bulk',
          args: [
            { type: 'count', args: { table: album } },
            { type: 'export_metadata', args: {} },
          ],
        },
        { endpoint: '/v1/query', headers: as('user') },
      ),
      400,
      adminOnly,
    );
    expectResponse(await dml('select', { table: album, columns: ['id'] }, as('user'), '/v1/metadata'), 400, adminOnly);
    expectResponse(await dml('track_table', { table: track }, as('user')), 400, adminOnly);
    expectResponse(await dml('count', { table: album }, as('user'), '/v2/query'), 200, { count: 3 });
  },
);

test(
  covers(['dec.dml.roles', 'dec.run_sql.errors'], 'a failing statement shows what happened inside (internal) to admin only: a role sees the error alone'),
  async () => {
    const nul = { table: album, objects: [{ id: 95, title: 'a\u0000b', year: 2020 }] };
    expectResponse(await dml('insert', nul), 400, { path: '$', error: 'query execution failed', code: 'postgres-error' });
    const asAdmin = await dml('insert', { ...nul, objects: [{ ...nul.objects[0], artist_id: 1 }] }, as('admin'));
    expectResponse(asAdmin, 400, {
      path: '$',
      error: 'query execution failed',
      code: 'postgres-error',
      internal: expect.objectContaining({
        error: expect.objectContaining({ status_code: '22021', message: 'invalid byte sequence for encoding "UTF8": 0x00' }),
      }),
    });
    expect(await albumsOver90()).toEqual([]);
  },
);
