import { geoJsonProblem, rasterProblem } from './geoJson';

const ring = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 0],
];

test('GeoJSON geometries of every type are taken; strings and null are left to PostgreSQL', () => {
  for (const value of [
    { type: 'Point', coordinates: [1, 2] },
    { type: 'Point', coordinates: [1, 2, 3], crs: { type: 'name', properties: { name: 'EPSG:4326' } } },
    { type: 'MultiPoint', coordinates: [[1, 2]] },
    {
      type: 'LineString',
      coordinates: [
        [0, 0],
        [1, 1],
      ],
    },
    {
      type: 'MultiLineString',
      coordinates: [
        [
          [0, 0],
          [1, 1],
        ],
      ],
    },
    { type: 'Polygon', coordinates: [ring] },
    { type: 'MultiPolygon', coordinates: [[ring]] },
    { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [0, 0] }] },
    { type: 'Point', coordinates: [0, null] },
    'POINT(0 0)',
    null,
    undefined,
  ])
    expect(geoJsonProblem(value)).toBeUndefined();
});

test('what is not GeoJSON gets the message the engine gives', () => {
  const cases: [unknown, string][] = [
    [42, 'parsing Geometry failed, expected Object, but encountered Number'],
    [true, 'parsing Geometry failed, expected Object, but encountered Boolean'],
    [[1, 2], 'parsing Geometry failed, expected Object, but encountered Array'],
    [{ coordinates: [0, 0] }, 'key "type" not found'],
    [{ type: 7 }, 'parsing Text failed, expected String, but encountered Number'],
    [{ type: 'Circle', coordinates: [0, 0] }, 'unexpected geometry type: Circle'],
    [{ type: 'Point' }, 'key "coordinates" not found'],
    [{ type: 'GeometryCollection' }, 'key "geometries" not found'],
    [{ type: 'Point', coordinates: [0] }, 'A Position needs at least 2 elements'],
    [{ type: 'Point', coordinates: { x: 0 } }, 'parsing Position failed, expected Array, but encountered Object'],
    [{ type: 'Point', coordinates: [0, '1'] }, 'parsing Double failed, unexpected String'],
    [{ type: 'MultiPoint', coordinates: 3 }, 'parsing [] failed, expected Array, but encountered Number'],
    [{ type: 'LineString', coordinates: [[0, 0]] }, 'A LineString needs at least 2 Positions'],
    [
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [0, 0],
          ],
        ],
      },
      'A LinearRing needs at least 4 Positions',
    ],
    [
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
          ],
        ],
      },
      'the first and last locations have to be equal for a LinearRing',
    ],
    [{ type: 'MultiPolygon', coordinates: [[[[0, 0]]]] }, 'A LinearRing needs at least 4 Positions'],
    [{ type: 'GeometryCollection', geometries: [{ type: 'Nope' }] }, 'unexpected geometry type: Nope'],
    [{ type: 'GeometryCollection', geometries: [null] }, 'parsing Geometry failed, expected Object, but encountered Null'],
    [{ type: 'GeometryCollection', geometries: 5 }, 'parsing [] failed, expected Array, but encountered Number'],
    [{ type: 'Point', coordinates: null }, 'parsing Position failed, expected Array, but encountered Null'],
    [{ type: 'LineString', coordinates: 5 }, 'parsing LineString failed, expected Array, but encountered Number'],
    [{ type: 'MultiLineString', coordinates: 5 }, 'parsing [] failed, expected Array, but encountered Number'],
    [{ type: 'Polygon', coordinates: 5 }, 'parsing [] failed, expected Array, but encountered Number'],
    [{ type: 'Polygon', coordinates: [5] }, 'parsing LinearRing failed, expected Array, but encountered Number'],
    [{ type: 'MultiPolygon', coordinates: 5 }, 'parsing [] failed, expected Array, but encountered Number'],
    [{ type: 'MultiPolygon', coordinates: [5] }, 'parsing [] failed, expected Array, but encountered Number'],
  ];
  for (const [value, message] of cases) expect([value, geoJsonProblem(value)]).toEqual([value, message]);
});

test('a raster is a string of hexadecimal digit pairs', () => {
  expect([rasterProblem('0100ab'), rasterProblem(''), rasterProblem(null), rasterProblem(undefined)]).toEqual([undefined, undefined, undefined, undefined]);
  expect(rasterProblem(12)).toBe('expecting String for raster');
  expect(rasterProblem('abc')).toBe('invalid hexadecimal representation of raster well known binary format');
  expect(rasterProblem('zz')).toBe('invalid hexadecimal representation of raster well known binary format');
});
