// The tables of `migrate status` and `migrate apply --dry-run`, character for character.
import { dryRunLines, statusLines, table } from './migrationStatus';
import type { Migration } from './migrationsDirectory';

const m = (version: string, name: string): Migration => ({ version, name, folder: `${version}_${name}`, up: '', down: '' });

test('columns as wide as their widest cell and two spaces; the last one as it is', () => {
  expect(
    table([
      ['a', 'bb', 'c'],
      ['ccc', '', 'dddd'],
    ]),
  ).toEqual(['a    bb  c', 'ccc      dddd']);
  expect(table([['x']])).toEqual(['x']);
  expect(table([])).toEqual([]);
  // Characters, not bytes.
  expect(
    table([
      ['é', 'x'],
      ['ab', 'y'],
    ]),
  ).toEqual(['é   x', 'ab  y']);
});

test('status: every version of the folder or of the records, oldest first, with where it is', () => {
  const recorded = new Map([
    ['1700000000000', false],
    ['1700000000005', false],
  ]);
  expect(statusLines('default', [m('1700000000000', 'init'), m('1700000000001', 'add_likes'), m('999', 'first')], recorded)).toEqual([
    '',
    'Database: default',
    'VERSION        NAME       SOURCE STATUS  DATABASE STATUS',
    '999            first      Present        Not Present',
    '1700000000000  init       Present        Present',
    '1700000000001  add_likes  Present        Not Present',
    '1700000000005             Not Present    Present',
  ]);
  expect(statusLines('archive', [], new Map())).toEqual(['', 'Database: archive', 'VERSION  NAME  SOURCE STATUS  DATABASE STATUS']);
});

test('dry run: the steps with their direction', () => {
  expect(
    dryRunLines([
      { migration: m('1700000000001', 'add_likes'), direction: 'down' },
      { migration: m('1700000000000', 'init'), direction: 'down' },
    ]),
  ).toEqual(['VERSION        TYPE  NAME', '1700000000001  down  add_likes', '1700000000000  down  init']);
});
