import { editDistance, nearestName } from './nearestName';

test('edit distance counts insertions, deletions and substitutions, and gives up above the limit', () => {
  expect(editDistance('track_table', 'track_table', 2)).toBe(0);
  expect(editDistance('trak_table', 'track_table', 2)).toBe(1);
  expect(editDistance('track_tabel', 'track_table', 2)).toBe(2);
  expect(editDistance('abc', 'xyz', 5)).toBe(3);
  expect(editDistance('abc', 'xyz', 2)).toBe(3);
  expect(editDistance('a', 'abcdef', 2)).toBe(3);
});

test('the nearest name within two edits, ignoring case; none when nothing is that close', () => {
  const names = ['track_table', 'untrack_table', 'track_function', 'bulk'];
  expect(nearestName('trak_table', names)).toBe('track_table');
  expect(nearestName('TRACK_TABLE', names)).toBe('track_table');
  expect(nearestName('untrak_table', names)).toBe('untrack_table');
  expect(nearestName('blk', names)).toBe('bulk');
  expect(nearestName('drop_everything', names)).toBeUndefined();
});
