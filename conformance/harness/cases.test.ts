// How cases name spec IDs and the sides of two-sided rules.
import { ITEMS_BY_ID } from '../../spec';
import { covers, idProblems, idsOfTitle } from './cases';

test('a side is kept in the title and dropped from the IDs the report counts', () => {
  const title = covers(['rule.perm.insert.check:allowed', 'rule.perm.insert.check:refused', 'err.permission-error.check-failed'], 'an insert');
  expect(title).toBe('an insert [rule.perm.insert.check:allowed rule.perm.insert.check:refused err.permission-error.check-failed]');
  expect(idsOfTitle(title)).toEqual(['rule.perm.insert.check', 'err.permission-error.check-failed']);
  expect(idProblems(title, ITEMS_BY_ID)).toEqual([]);
});

test('an ID that is not written as one is refused where the case is made', () => {
  expect(() => covers(['rule.perm.insert.check:maybe'], 'an insert')).toThrow('malformed spec ID rule.perm.insert.check:maybe in "an insert"');
  expect(() => covers(['perm.insert'], 'an insert')).toThrow('malformed spec ID perm.insert in "an insert"');
  expect(() => covers(['op.track_table.'], 'a track')).toThrow('malformed spec ID op.track_table. in "a track"');
});

test('only a two-sided rule takes a side, and only an ID of the spec is named', () => {
  expect(idProblems(covers(['op.track_table.v1:allowed'], 'a track'), ITEMS_BY_ID)).toEqual([
    'op.track_table.v1 has no sides, so op.track_table.v1:allowed in "a track [op.track_table.v1:allowed]" names none',
  ]);
  expect(idProblems(covers(['rule.no-such:refused', 'op.track_table.v1'], 'nothing'), ITEMS_BY_ID)).toEqual([
    'unknown spec ID rule.no-such in "nothing [rule.no-such:refused op.track_table.v1]"',
  ]);
  expect(idProblems('a title without IDs', ITEMS_BY_ID)).toEqual([]);
  // Brackets at the end of another test's title that name no spec item.
  expect(idProblems('refused: ["--target","http://a"]', ITEMS_BY_ID)).toEqual([]);
});
