// How cases name spec IDs and the sides of two-sided rules.
import { covers, idsOfTitle } from './cases';

test('a side is kept in the title and dropped from the IDs the report counts', () => {
  const title = covers(['rule.perm.insert.check:allowed', 'rule.perm.insert.check:refused', 'err.permission-error.check-failed'], 'an insert');
  expect(title).toBe('an insert [rule.perm.insert.check:allowed rule.perm.insert.check:refused err.permission-error.check-failed]');
  expect(idsOfTitle(title)).toEqual(['rule.perm.insert.check', 'err.permission-error.check-failed']);
});

test('only a two-sided rule takes a side, and only a known one', () => {
  expect(() => covers(['op.track_table.v1:allowed'], 'a track')).toThrow(
    'op.track_table.v1 has no sides, so op.track_table.v1:allowed in "a track" names none',
  );
  expect(() => covers(['rule.perm.insert.check:maybe'], 'an insert')).toThrow('unknown spec ID rule.perm.insert.check:maybe in "an insert"');
  expect(() => covers(['rule.no-such:refused'], 'nothing')).toThrow('unknown spec ID rule.no-such in "nothing"');
});
