import { nearestName } from './nearestName';

test('the nearest name within two edits, ignoring case; none when nothing is that close', () => {
  const names = ['track_table', 'untrack_table', 'track_function', 'bulk'];
  expect(nearestName('trak_table', names)).toBe('track_table');
  expect(nearestName('TRACK_TABLE', names)).toBe('track_table');
  expect(nearestName('untrak_table', names)).toBe('untrack_table');
  expect(nearestName('blk', names)).toBe('bulk');
  expect(nearestName('drop_everything', names)).toBeUndefined();
  // Exactly two edits is a typo, three is not; the closest of two candidates wins.
  expect(nearestName('track_tabel', names)).toBe('track_table');
  expect(nearestName('trck_tabel', names)).toBeUndefined();
  expect(nearestName('bulks', ['bulk', 'bulkss'])).toBe('bulk');
});
