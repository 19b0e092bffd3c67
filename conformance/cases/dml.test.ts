// The legacy DML of /v1/query and its §7.2 messages, word for word.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { fixtureSql, musicMetadata, musicTable } from '../harness/fixtures';
import { useTarget } from '../harness/target';

const target = useTarget();
const music = musicTable;
const artist = music('artist');
const album = music('album');
const dml = (type: string, args: Record<string, unknown>) => target.metadata({ type, args }, { endpoint: '/v1/query' });
const payloadError = (path: string, error: string) => ({ path, error, code: 'unexpected-payload' });

beforeAll(async () => {
  await target.sql(fixtureSql('music'));
  await target.metadata(musicMetadata(['artist', 'album'], ['album.artist', 'artist.albums']));
});

test(covers(['op.select'], 'select with where, order_by, limit, offset and nested relationships'), async () => {
  const r = await dml('select', {
    table: artist,
    columns: ['id', 'name', { name: 'albums', columns: ['title', { name: 'artist', columns: ['name'] }], where: { year: { $gt: 2000 } }, order_by: ['-year'] }],
    where: { $or: [{ country: 'NO' }, { country: { _eq: 'US' } }] },
    order_by: [{ column: 'id', type: 'asc' }],
    limit: 2,
  });
  expectResponse(r, 200, [
    {
      id: 1,
      name: 'Aurora Lane',
      albums: [
        { title: 'Long Night', artist: { name: 'Aurora Lane' } },
        { title: 'First Light', artist: { name: 'Aurora Lane' } },
      ],
    },
    { id: 2, name: 'Brass Tacks', albums: [{ title: 'Second Wind', artist: { name: 'Brass Tacks' } }] },
  ]);
});

test(covers(['op.select'], 'select * , order by an object relationship column, and offset'), async () => {
  const r = await dml('select', { table: album, columns: ['id'], order_by: ['-artist.name', '+year'], offset: 1 });
  expectResponse(r, 200, [{ id: 21 }, { id: 10 }, { id: 11 }]);
  const all = await dml('select', { table: artist, columns: ['*'], where: { id: 3 } });
  expectResponse(all, 200, [{ id: 3, name: 'Cellar Door', country: null, formed: null, tags: null }]);
});

test(covers(['op.select', 'err.unexpected-payload.order-by-empty'], 'an empty order_by is refused'), async () => {
  expectResponse(
    await dml('select', { table: artist, columns: ['id'], order_by: [] }),
    400,
    payloadError('$.args.order_by', 'order_by array should not be empty'),
  );
});

test(
  covers(['op.select', 'err.unexpected-payload.object-relationship-arguments'], 'an object relationship takes no where, order_by, limit or offset'),
  async () => {
    expectResponse(
      await dml('select', { table: album, columns: [{ name: 'artist', columns: ['name'], limit: 1 }] }),
      400,
      payloadError('$.args.columns[0]', "when selecting an obj_relationship where, order_by, limit and offset can't be used"),
    );
  },
);

test(covers(['op.select', 'err.no-code.relationship-expand'], 'a relationship must be expanded, and that error has no code'), async () => {
  expectResponse(await dml('select', { table: album, columns: ['id', 'artist'] }), 400, {
    path: '$.args.columns[1]',
    error: 'artist is a relationship and should be expanded',
  });
});

test(covers(['op.select', 'err.unexpected-payload.array-relationship-order-by'], 'an array relationship cannot order'), async () => {
  expectResponse(
    await dml('select', { table: artist, columns: ['id'], order_by: ['albums.year'] }),
    400,
    payloadError('$.args.order_by', "albums is an array relationship and can't be used in order_by"),
  );
});

test(covers(['op.select', 'err.no-code.column-chained'], 'a column cannot be chained in order_by'), async () => {
  expectResponse(await dml('select', { table: artist, columns: ['id'], order_by: ['name.length'] }), 400, {
    path: '$.args.order_by',
    error: 'name is a Postgres column and cannot be chained further',
  });
});

test(covers(['op.select', 'err.not-exists.no-such-column'], 'unknown columns are refused'), async () => {
  expectResponse(await dml('select', { table: artist, columns: ['id', 'nickname'] }), 400, {
    path: '$.args.columns[1]',
    error: 'no such column exists : "nickname"',
    code: 'not-exists',
  });
  expectResponse(await dml('select', { table: artist, columns: ['id'], where: { nickname: 'x' } }), 400, {
    path: '$.args.where',
    error: 'no such column exists : "nickname"',
    code: 'not-exists',
  });
});

test(covers(['op.select', 'err.unexpected-payload.empty'], 'columns must not be empty'), async () => {
  expectResponse(await dml('select', { table: artist, columns: [] }), 400, payloadError('$.args.columns', "can't be empty"));
});

test(covers(['op.select', 'err.not-exists.table'], 'DML needs a tracked table'), async () => {
  expectResponse(await dml('select', { table: music('track'), columns: ['id'] }), 400, {
    path: '$.args.table',
    error: 'table "music.track" does not exist',
    code: 'not-exists',
  });
});

test(covers(['err.unexpected-payload.unknown-operator'], 'an unknown operator is refused'), async () => {
  expectResponse(
    await dml('select', { table: artist, columns: ['id'], where: { id: { $approx: 1 } } }),
    400,
    payloadError('$.args.where.id["$approx"]', 'Unknown operator : $approx'),
  );
});

test(
  covers(
    ['err.unexpected-payload.unknown-operator', 'err.parse-failed.arguments', 'dec.envelope.argument-paths', 'dec.dml.where-paths'],
    'a where of the wrong shape is refused, naming the shape where it is: its and/or/not/exists read with the arguments, its columns and operators after',
  ),
  async () => {
    const parseFailed = (path: string, error: string) => ({ path, error, code: 'parse-failed' });
    const cases: [unknown, Record<string, unknown>][] = [
      // The operators of a column are read with the table: below `$.args.where`, by column and operator.
      [{ id: { eq: 10 } }, payloadError('$.args.where.id.eq', 'Unknown operator : eq')],
      [{ id: { in: [10] } }, payloadError('$.args.where.id.in', 'Unknown operator : in')],
      [{ _and: [{ id: 10 }, { id: { $gt: 1, eq: 10 } }] }, payloadError('$.args.where.id.eq', 'Unknown operator : eq')],
      [{ id: { $in: 10 } }, parseFailed('$.args.where.id["$in"]', 'expected Array for $in')],
      // Inside a relationship, its name is not part of the path; its own and/or/not are.
      [{ artist: { name: { eq: 'x' } } }, payloadError('$.args.where.name.eq', 'Unknown operator : eq')],
      [{ artist: { _not: { _or: { id: 1 } } } }, parseFailed('$.args.where._not._or', 'expected Array for _or')],
      // _exists: its table and its where, below `_exists`.
      [
        { $exists: { _table: music('ghost'), _where: {} } },
        { path: '$.args.where._exists._table', error: 'table "music.ghost" does not exist', code: 'not-exists' },
      ],
      [{ $exists: { _table: artist, _where: { id: { eq: 1 } } } }, payloadError('$.args.where._exists._where.id.eq', 'Unknown operator : eq')],
      // The expression's own shape is read with the arguments: below the envelope on /v1/query (dec.envelope.argument-paths).
      [[{ id: 10 }], parseFailed('$.where', 'expected Object, but encountered Array')],
      [{ $and: [{ id: 10 }, 'x'] }, parseFailed('$.where["$and"]', 'expected Object for a boolean expression')],
      [{ $and: { id: 10 } }, parseFailed('$.where["$and"]', 'expected Array for $and')],
      [{ _or: { id: 10 } }, parseFailed('$.where._or', 'expected Array for _or')],
      [{ _not: { _and: [{ _or: 5 }] } }, parseFailed('$.where._not._and._or', 'expected Array for _or')],
      [{ $exists: { _table: artist } }, parseFailed('$.where["$exists"]', '_exists expects {_table, _where}')],
      [{ $exists: { _where: {} } }, parseFailed('$.where["$exists"]', '_exists expects {_table, _where}')],
      [{ $exists: [artist, {}] }, parseFailed('$.where["$exists"]', '_exists expects {_table, _where}')],
      [{ $exists: { _table: 5, _where: {} } }, parseFailed('$.where["$exists"]._table', 'expected String or Object (table), but encountered Number')],
      [{ _exists: { _table: artist, _where: { _or: 1 } } }, parseFailed('$.where._exists._where._or', 'expected Array for _or')],
    ];
    for (const [where, error] of cases) {
      const r = await dml('count', { table: album, where });
      expect([where, r.status, r.body]).toEqual([where, 400, error]);
    }
    // So is the where of a relationship's nested select, at its place among the columns.
    expectResponse(
      await dml('select', { table: artist, columns: ['id', { name: 'albums', columns: ['title'], where: { _or: {} } }] }),
      400,
      parseFailed('$.columns[1].where._or', 'expected Array for _or'),
    );
    expectResponse(
      await dml('select', { table: artist, columns: [{ name: 'albums', columns: [{ name: 'artist', columns: ['name'], where: { $and: 1 } }] }] }),
      400,
      parseFailed('$.columns[0].columns[0].where["$and"]', 'expected Array for $and'),
    );
    // update and delete read their where alike.
    expectResponse(await dml('delete', { table: album, where: { _or: {} } }), 400, parseFailed('$.where._or', 'expected Array for _or'));
    expectResponse(
      await dml('update', { table: album, where: { id: { eq: 1 } }, $set: { year: 1 } }),
      400,
      payloadError('$.args.where.id.eq', 'Unknown operator : eq'),
    );
  },
);

test(covers(['err.unexpected-payload.operator-column-type'], 'a text operator on a number column is refused'), async () => {
  expectResponse(
    await dml('select', { table: artist, columns: ['id'], where: { formed: { $like: '19%' } } }),
    400,
    payloadError('$.args.where.formed["$like"]', '"formed" is of type int4; this operator works only on column of types [text, varchar, bpchar, citext, name]'),
  );
});

test(
  covers(
    ['err.unexpected-payload.expecting-string', 'err.unexpected-payload.incompatible-columns'],
    'column comparison operators name a column of the same type',
  ),
  async () => {
    expectResponse(
      await dml('count', { table: album, where: { year: { $cgt: 5 } } }),
      400,
      payloadError('$.args.where.year["$cgt"]', 'expecting a string for column operator'),
    );
    expectResponse(
      await dml('count', { table: album, where: { year: { $ceq: 'title' } } }),
      400,
      payloadError('$.args.where.year["$ceq"]', 'incompatible column types : year, title'),
    );
    expectResponse(await dml('count', { table: album, where: { year: { $ceq: 'nope' } } }), 400, {
      path: '$.args.where.year["$ceq"]',
      error: 'no such column exists : "nope"',
      code: 'not-exists',
    });
    expectResponse(await dml('count', { table: album, where: { artist_id: { _cne: 'year' } } }), 200, { count: 4 });
  },
);

test(covers(['err.unexpected-payload.json-in-where'], 'a json column cannot be compared'), async () => {
  await target.sql('alter table music.artist add column if not exists notes json');
  await target.metadata({ type: 'reload_metadata', args: {} });
  try {
    expectResponse(
      await dml('count', { table: artist, where: { notes: { $eq: '{}' } } }),
      400,
      payloadError('$.args.where', 'JSON column can not be part of where clause'),
    );
    expectResponse(
      await dml('count', { table: artist, where: { notes: '{}' } }),
      400,
      payloadError('$.args.where', 'JSON column can not be part of where clause'),
    );
    // An operator without $ or _ is no operator, whatever the column.
    expectResponse(await dml('count', { table: artist, where: { notes: { eq: '{}' } } }), 400, payloadError('$.args.where.notes.eq', 'Unknown operator : eq'));
  } finally {
    await target.sql('alter table music.artist drop column notes');
    await target.metadata({ type: 'reload_metadata', args: {} });
  }
});

test(covers(['op.count'], 'count, with where and distinct'), async () => {
  expectResponse(await dml('count', { table: album }), 200, { count: 4 });
  expectResponse(await dml('count', { table: album, where: { genre: 'jazz' } }), 200, { count: 2 });
  expectResponse(await dml('count', { table: album, distinct: ['artist_id'] }), 200, { count: 2 });
  expectResponse(await dml('count', { table: album, where: { artist: { name: { $ilike: 'brass%' } } } }), 200, { count: 2 });
});

describe('writes', () => {
  beforeEach(() =>
    target.sql('delete from music.track where album_id >= 90; delete from music.album where id >= 90; delete from music.artist where id >= 90;'),
  );

  test(covers(['op.insert'], 'insert answers affected_rows and the returning columns'), async () => {
    const r = await dml('insert', {
      table: artist,
      objects: [
        { id: 90, name: 'Ninety' },
        { id: 91, name: 'Ninety-One', formed: 2001 },
      ],
      returning: ['id', 'formed'],
    });
    expectResponse(r, 200, {
      affected_rows: 2,
      returning: [
        { id: 90, formed: null },
        { id: 91, formed: 2001 },
      ],
    });
  });

  test(covers(['op.insert', 'err.unexpected-payload.objects-empty'], 'objects must not be empty'), async () => {
    expectResponse(await dml('insert', { table: artist, objects: [] }), 400, payloadError('$.args.objects', 'objects should not be empty'));
  });

  test(
    covers(
      ['op.insert', 'err.unexpected-payload.upsert-needs-constraint', 'err.unexpected-payload.constraint-and-constraint-on'],
      'on_conflict: update needs one constraint',
    ),
    async () => {
      expectResponse(
        await dml('insert', { table: artist, objects: [{ id: 1, name: 'x' }], on_conflict: { action: 'update' } }),
        400,
        payloadError('$.args.on_conflict', 'Expecting constraint or constraint_on when the action is update'),
      );
      expectResponse(
        await dml('insert', {
          table: artist,
          objects: [{ id: 1, name: 'x' }],
          on_conflict: { action: 'update', constraint: 'artist_pkey', constraint_on: ['id'] },
        }),
        400,
        payloadError('$.args.on_conflict', 'constraint and constraint_on cannot be set at a time'),
      );
    },
  );

  test(covers(['op.insert'], 'on_conflict update and ignore'), async () => {
    await dml('insert', { table: artist, objects: [{ id: 92, name: 'Before' }] });
    expectResponse(
      await dml('insert', {
        table: artist,
        objects: [{ id: 92, name: 'After' }],
        on_conflict: { action: 'update', constraint_on: ['id'] },
        returning: ['name'],
      }),
      200,
      {
        affected_rows: 1,
        returning: [{ name: 'After' }],
      },
    );
    expectResponse(await dml('insert', { table: artist, objects: [{ id: 92, name: 'Ignored' }], on_conflict: { action: 'ignore' } }), 200, {
      affected_rows: 0,
    });
  });

  test(covers(['op.insert', 'err.postgres-error.not-null'], 'a missing required column is a Not-NULL violation'), async () => {
    expectResponse(await dml('insert', { table: artist, objects: [{ id: 93 }] }), 400, {
      path: '$.args',
      error: 'Not-NULL violation. null value in column "name" violates not-null constraint',
      code: 'postgres-error',
    });
  });

  test(covers(['op.insert', 'err.no-code.expecting-column'], 'returning takes columns, not relationships'), async () => {
    expectResponse(await dml('insert', { table: artist, objects: [{ id: 94, name: 'R' }], returning: ['albums'] }), 400, {
      path: '$.args.returning[0]',
      error: 'expecting a postgres column; but, albums is relationship',
    });
  });

  test(covers(['op.update'], 'update with $set, $inc, $mul and $default'), async () => {
    await dml('insert', { table: album, objects: [{ id: 95, title: 'T', artist_id: 1, year: 2000, price: 10 }] });
    const r = await dml('update', {
      table: album,
      where: { id: 95 },
      $set: { title: 'U' },
      $inc: { year: 5 },
      $mul: { price: 2 },
      $default: ['genre'],
      returning: ['title', 'year', 'price', 'genre'],
    });
    expectResponse(r, 200, { affected_rows: 1, returning: [{ title: 'U', year: 2005, price: 20, genre: null }] });
  });

  test(covers(['op.update', 'err.unexpected-payload.update-operators'], 'update needs an operator'), async () => {
    expectResponse(await dml('update', { table: album, where: { id: 95 } }), 400, payloadError('$.args', 'atleast one of $set, $inc, $mul has to be present'));
  });

  test(covers(['op.delete'], 'delete answers affected_rows and returning'), async () => {
    await dml('insert', {
      table: artist,
      objects: [
        { id: 96, name: 'Gone' },
        { id: 97, name: 'Gone too' },
      ],
    });
    expectResponse(await dml('delete', { table: artist, where: { name: { $like: 'Gone%' } }, returning: ['id'] }), 200, {
      affected_rows: 2,
      returning: [{ id: 96 }, { id: 97 }],
    });
  });

  test(
    covers(
      ['op.delete'],
      'delete through an object relationship keeps the other rows; without returning it answers affected_rows alone, 0 when nothing matches',
    ),
    async () => {
      await dml('insert', {
        table: artist,
        objects: [
          { id: 98, name: 'Kept label' },
          { id: 99, name: 'Dropped label' },
        ],
      });
      await dml('insert', {
        table: album,
        objects: [
          { id: 980, title: 'Kept record', year: 1990, artist_id: 98 },
          { id: 990, title: 'Dropped record', year: 1991, artist_id: 99 },
          { id: 991, title: 'Dropped again', year: 1992, artist_id: 99 },
        ],
      });
      expectResponse(await dml('delete', { table: album, where: { artist: { name: { $eq: 'Dropped label' } } } }), 200, { affected_rows: 2 });
      expectResponse(await dml('delete', { table: album, where: { artist: { name: { $eq: 'Dropped label' } } } }), 200, { affected_rows: 0 });
      expectResponse(await dml('select', { table: album, columns: ['id'], where: { id: { $gte: 980 } }, order_by: ['id'] }), 200, [{ id: 980 }]);
      expectResponse(await dml('delete', { table: album, where: { id: 980 }, returning: ['title'] }), 200, {
        affected_rows: 1,
        returning: [{ title: 'Kept record' }],
      });
      await dml('delete', { table: artist, where: { id: { $in: [98, 99] } } });
    },
  );
});

test(covers(['op.select', 'op.count'], 'every operator of a where, in both spellings ($op and _op), keeps exactly its rows'), async () => {
  const ids = async (table: { schema: string; name: string }, where: unknown) => {
    const r = await dml('select', { table, columns: ['id'], where, order_by: ['id'] });
    if (r.status !== 200) throw new Error(`${JSON.stringify(where)}: ${r.status} ${r.text}`);
    return (r.body as { id: number }[]).map((row) => row.id);
  };
  /** [where with `$` operators, the ids it keeps]; each is also asked with `_` operators. */
  const onAlbums: [Record<string, unknown>, number[]][] = [
    [{ year: { $eq: 2012 } }, [10]],
    [{ year: { $ne: 2012 } }, [11, 20, 21]],
    [{ year: { $neq: 2012 } }, [11, 20, 21]],
    [{ year: { $gt: 2004 } }, [10, 11]],
    [{ year: { $lt: 2004 } }, [20]],
    [{ year: { $gte: 2004 } }, [10, 11, 21]],
    [{ year: { $lte: 2004 } }, [20, 21]],
    [{ year: { $in: [1999, 2015] } }, [11, 20]],
    [{ year: { $nin: [1999, 2015] } }, [10, 21]],
    [{ year: { $in: [] } }, []],
    [{ price: { $is_null: true } }, [21]],
    [{ price: { $is_null: false } }, [10, 11, 20]],
    [{ price: null }, [21]],
    [{ genre: 'jazz' }, [20, 21]],
    [{ title: { $like: '%Light' } }, [10]],
    [{ title: { $nlike: '%Light' } }, [11, 20, 21]],
    [{ title: { $ilike: 'first%' } }, [10]],
    [{ title: { $nilike: 'first%' } }, [11, 20, 21]],
    [{ title: { $similar: '(First|Horns)%' } }, [10, 20]],
    [{ title: { $nsimilar: '(First|Horns)%' } }, [11, 21]],
    [{ title: { $regex: '^S' } }, [21]],
    [{ title: { $nregex: '^S' } }, [10, 11, 20]],
    [{ title: { $iregex: '^s' } }, [21]],
    [{ title: { $niregex: '^s' } }, [10, 11, 20]],
    [{ $and: [{ year: { $gt: 2000 } }, { genre: 'jazz' }] }, [21]],
    [{ $or: [{ year: { $lt: 2000 } }, { genre: 'rock' }] }, [11, 20]],
    [{ $not: { year: { $gt: 2004 } } }, [20, 21]],
    [{ $exists: { _table: artist, _where: { country: 'NO' } } }, [10, 11, 20, 21]],
    [{ $exists: { _table: artist, _where: { country: 'SE' } } }, []],
    [{ artist: { country: { $eq: 'US' } } }, [20, 21]],
  ];
  const underscored = (exp: unknown): unknown =>
    Array.isArray(exp)
      ? exp.map(underscored)
      : typeof exp === 'object' && exp !== null
        ? Object.fromEntries(Object.entries(exp).map(([k, v]) => [k.startsWith('$') ? `_${k.slice(1)}` : k, k === '_table' ? v : underscored(v)]))
        : exp;
  const check = async (table: { schema: string; name: string }, cases: [Record<string, unknown>, number[]][]) => {
    for (const [where, expected] of cases) {
      for (const form of [where, underscored(where)]) expect([form, await ids(table, form)]).toEqual([form, expected]);
    }
  };
  await check(album, onAlbums);

  // Column comparisons, JSONB operators and the text operators on each text type, over a table of their own.
  const pairs = music('pairs');
  await target.sql(`
      create extension if not exists citext;
      drop table if exists music.pairs;
      create table music.pairs (id integer primary key, a integer, b integer, j jsonb, v varchar(8), c char(3), nm name, ci citext);
      insert into music.pairs values
        (1, 1, 1, '{"a": 1, "b": 2}', 'xa', 'xa', 'xa', 'XA'),
        (2, 1, 2, '{"a": 1}', 'ya', 'ya', 'ya', 'ya'),
        (3, 2, 1, '{}', 'xb', 'xb', 'xb', 'xb'),
        (4, null, 1, null, null, null, null, null);
    `);
  expectResponse(await target.metadata({ type: 'track_table', args: { table: pairs } }), 200, { message: 'success' });
  try {
    const onPairs: [Record<string, unknown>, number[]][] = [
      [{ a: { $ceq: 'b' } }, [1]],
      [{ a: { $cne: 'b' } }, [2, 3]],
      [{ a: { $cneq: 'b' } }, [2, 3]],
      [{ a: { $cgt: 'b' } }, [3]],
      [{ a: { $clt: 'b' } }, [2]],
      [{ a: { $cgte: 'b' } }, [1, 3]],
      [{ a: { $clte: 'b' } }, [1, 2]],
      [{ a: 1 }, [1, 2]],
      [{ j: { $contains: { a: 1 } } }, [1, 2]],
      [{ j: { $contained_in: { a: 1, b: 2 } } }, [1, 2, 3]],
      [{ j: { $has_key: 'b' } }, [1]],
      [{ j: { $has_keys_any: ['a', 'b'] } }, [1, 2]],
      [{ j: { $has_keys_all: ['a', 'b'] } }, [1]],
      [{ v: { $like: 'x%' } }, [1, 3]],
      [{ c: { $like: 'x%' } }, [1, 3]],
      [{ nm: { $like: 'x%' } }, [1, 3]],
      [{ ci: { $like: 'x%' } }, [1, 3]],
      [{ ci: 'Xa' }, [1]],
    ];
    await check(pairs, onPairs);
    expectResponse(await dml('count', { table: pairs, where: { j: { _has_key: 'a' } } }), 200, { count: 2 });
    expectResponse(
      await dml('count', { table: pairs, where: { v: { _contains: { a: 1 } } } }),
      400,
      payloadError('$.args.where.v._contains', '"v" is of type varchar; this operator works only on column of types [jsonb]'),
    );
  } finally {
    await target.metadata({ type: 'untrack_table', args: { table: pairs } });
    await target.sql('drop table music.pairs');
  }
});

/**
 * A second case for each refusal of the DML above: inside a bulk at /v1/query, after an insert that
 * succeeds, the whole bulk is refused with the member's answer at its place under `$.args[1]`, and
 * the insert is not kept. `ids` names the refusal (literally, so the coverage count sees it).
 */
function caseInQueryBulk(ids: [string], member: { type: string; args: Record<string, unknown> }, answer: { path: string; error: string; code?: string }): void {
  test(covers(['op.bulk', ...ids], `in a bulk after an insert, ${member.type} is refused at its place and the insert is not kept`), async () => {
    const probe = { type: 'insert', args: { table: artist, objects: [{ id: 98, name: 'Probe' }] } };
    const r = await target.metadata({ type: 'bulk', args: [probe, member] }, { endpoint: '/v1/query' });
    expectResponse(r, 400, { ...answer, path: `$.args[1]${answer.path.slice(1)}` });
    expect(await target.sql('select id from music.artist where id = 98')).toEqual([]);
  });
}

caseInQueryBulk(
  ['err.unexpected-payload.order-by-empty'],
  { type: 'select', args: { table: artist, columns: ['id'], order_by: [] } },
  payloadError('$.args.order_by', 'order_by array should not be empty'),
);
caseInQueryBulk(
  ['err.unexpected-payload.object-relationship-arguments'],
  { type: 'select', args: { table: album, columns: [{ name: 'artist', columns: ['name'], limit: 1 }] } },
  payloadError('$.args.columns[0]', "when selecting an obj_relationship where, order_by, limit and offset can't be used"),
);
caseInQueryBulk(
  ['err.no-code.relationship-expand'],
  { type: 'select', args: { table: album, columns: ['id', 'artist'] } },
  { path: '$.args.columns[1]', error: 'artist is a relationship and should be expanded' },
);
caseInQueryBulk(
  ['err.unexpected-payload.array-relationship-order-by'],
  { type: 'select', args: { table: artist, columns: ['id'], order_by: ['albums.year'] } },
  payloadError('$.args.order_by', "albums is an array relationship and can't be used in order_by"),
);
caseInQueryBulk(
  ['err.no-code.column-chained'],
  { type: 'select', args: { table: artist, columns: ['id'], order_by: ['name.length'] } },
  { path: '$.args.order_by', error: 'name is a Postgres column and cannot be chained further' },
);
caseInQueryBulk(['err.unexpected-payload.empty'], { type: 'select', args: { table: artist, columns: [] } }, payloadError('$.args.columns', "can't be empty"));
caseInQueryBulk(
  ['err.unexpected-payload.operator-column-type'],
  { type: 'select', args: { table: artist, columns: ['id'], where: { formed: { $like: '19%' } } } },
  payloadError('$.args.where.formed["$like"]', '"formed" is of type int4; this operator works only on column of types [text, varchar, bpchar, citext, name]'),
);
caseInQueryBulk(
  ['err.unexpected-payload.expecting-string'],
  { type: 'count', args: { table: album, where: { year: { $cgt: 5 } } } },
  payloadError('$.args.where.year["$cgt"]', 'expecting a string for column operator'),
);
caseInQueryBulk(
  ['err.unexpected-payload.incompatible-columns'],
  { type: 'count', args: { table: album, where: { year: { $ceq: 'title' } } } },
  payloadError('$.args.where.year["$ceq"]', 'incompatible column types : year, title'),
);
caseInQueryBulk(
  ['err.unexpected-payload.objects-empty'],
  { type: 'insert', args: { table: artist, objects: [] } },
  payloadError('$.args.objects', 'objects should not be empty'),
);
caseInQueryBulk(
  ['err.unexpected-payload.upsert-needs-constraint'],
  { type: 'insert', args: { table: artist, objects: [{ id: 1, name: 'x' }], on_conflict: { action: 'update' } } },
  payloadError('$.args.on_conflict', 'Expecting constraint or constraint_on when the action is update'),
);
caseInQueryBulk(
  ['err.unexpected-payload.constraint-and-constraint-on'],
  {
    type: 'insert',
    args: { table: artist, objects: [{ id: 1, name: 'x' }], on_conflict: { action: 'update', constraint: 'artist_pkey', constraint_on: ['id'] } },
  },
  payloadError('$.args.on_conflict', 'constraint and constraint_on cannot be set at a time'),
);
caseInQueryBulk(
  ['err.no-code.expecting-column'],
  { type: 'insert', args: { table: artist, objects: [{ id: 94, name: 'R' }], returning: ['albums'] } },
  { path: '$.args.returning[0]', error: 'expecting a postgres column; but, albums is relationship' },
);
caseInQueryBulk(
  ['err.unexpected-payload.update-operators'],
  { type: 'update', args: { table: album, where: { id: 95 } } },
  payloadError('$.args', 'atleast one of $set, $inc, $mul has to be present'),
);
