// Which migrations apply runs, and why it refuses before running any.
import { planMigrations, type PlanInput, type PlanRequest } from './migrationPlan';
import { MigrationsError, type Migration } from './migrationsDirectory';

const m = (version: string, name: string, files: { up?: string; down?: string } = { up: `-- up ${name}`, down: `-- down ${name}` }): Migration => ({
  version,
  name,
  folder: `${version}_${name}`,
  ...files,
});
const A = m('100', 'a');
const B = m('200', 'b');
const C = m('300', 'c');
const D = m('1000', 'd');
const MIGRATIONS = [A, B, C, D];

const recorded = (...versions: string[]) => new Map(versions.map((v) => [v, false]));
const input = (rec: Map<string, boolean>, extra: Partial<PlanInput> = {}): PlanInput => ({
  migrations: MIGRATIONS,
  recorded: rec,
  database: 'default',
  skipExecution: false,
  ...extra,
});
const plan = (rec: Map<string, boolean>, request: PlanRequest, extra: Partial<PlanInput> = {}) =>
  planMigrations(input(rec, extra), request).map((s) => `${s.direction} ${s.migration.folder}`);
const refusal = (rec: Map<string, boolean>, request: PlanRequest, extra: Partial<PlanInput> = {}) => {
  try {
    planMigrations(input(rec, extra), request);
  } catch (error) {
    expect(error).toBeInstanceOf(MigrationsError);
    return (error as Error).message;
  }
  throw new Error('planned');
};

test('up: every migration not applied, oldest first, those before the last applied too; --up N the first N', () => {
  expect(plan(recorded(), { kind: 'up' })).toEqual(['up 100_a', 'up 200_b', 'up 300_c', 'up 1000_d']);
  expect(plan(recorded('200'), { kind: 'up' })).toEqual(['up 100_a', 'up 300_c', 'up 1000_d']);
  expect(plan(recorded(), { kind: 'up', count: 2 })).toEqual(['up 100_a', 'up 200_b']);
  expect(plan(recorded('100', '200'), { kind: 'up', count: 2 })).toEqual(['up 300_c', 'up 1000_d']);
  expect(plan(recorded('100', '200', '300', '1000'), { kind: 'up' })).toEqual([]);
  expect(plan(recorded('100', '200', '300', '1000'), { kind: 'up', count: 3 })).toEqual([]);
  // A version the server records that the folder does not have is left alone.
  expect(plan(recorded('150'), { kind: 'up', count: 1 })).toEqual(['up 100_a']);
  expect(refusal(recorded('100', '200'), { kind: 'up', count: 3 })).toBe('--up 3: only 2 migrations are not applied on database default');
  expect(refusal(recorded('100', '200', '300'), { kind: 'up', count: 2 })).toBe('--up 2: only 1 migration is not applied on database default');
});

test('down: the last applied, newest first; --down N the last N', () => {
  expect(plan(recorded('100', '200', '1000'), { kind: 'down', count: 1 })).toEqual(['down 1000_d']);
  expect(plan(recorded('100', '200', '1000'), { kind: 'down', count: 2 })).toEqual(['down 1000_d', 'down 200_b']);
  expect(plan(recorded('100', '200', '1000'), { kind: 'down' })).toEqual(['down 1000_d', 'down 200_b', 'down 100_a']);
  // By version, as numbers, whatever order the records come in.
  expect(plan(recorded('1000', '100', '200'), { kind: 'down' })).toEqual(['down 1000_d', 'down 200_b', 'down 100_a']);
  expect(plan(recorded('100', '200'), { kind: 'down', count: 2 })).toEqual(['down 200_b', 'down 100_a']);
  expect(plan(recorded(), { kind: 'down' })).toEqual([]);
  expect(plan(recorded(), { kind: 'down', count: 1 })).toEqual([]);
  expect(refusal(recorded('100'), { kind: 'down', count: 2 })).toBe('--down 2: only 1 migration is applied on database default');
});

test('a step without the file it needs, or an applied version without its folder, stops everything before it runs', () => {
  const noDown = m('200', 'b', { up: 'create table b ();' });
  const noUp = m('300', 'c', { down: 'drop table c;' });
  const migrations = [A, noDown, noUp];
  expect(refusal(recorded('100', '200'), { kind: 'down' }, { migrations })).toBe('200_b has no down.sql');
  expect(refusal(recorded('100'), { kind: 'up' }, { migrations })).toBe('300_c has no up.sql');
  // Only the steps that run need their file.
  expect(plan(recorded('100'), { kind: 'up', count: 1 }, { migrations })).toEqual(['up 200_b']);
  expect(refusal(recorded('100', '250'), { kind: 'down', count: 1 })).toBe('the migrations of database default have no folder of version 250');
  // The files are needed even when only the records change, as the engine's CLI needs them.
  expect(refusal(recorded('100'), { kind: 'up' }, { migrations, skipExecution: true })).toBe('300_c has no up.sql');
});

test('--version V --type up|down: that one migration', () => {
  expect(plan(recorded('100'), { kind: 'version', version: '300', direction: 'up' })).toEqual(['up 300_c']);
  expect(plan(recorded('100', '300'), { kind: 'version', version: '100', direction: 'down' })).toEqual(['down 100_a']);
  expect(refusal(recorded('100'), { kind: 'version', version: '100', direction: 'up' })).toBe('100_a is already applied on database default');
  expect(refusal(recorded('100'), { kind: 'version', version: '200', direction: 'down' })).toBe('version 200 is not applied on database default');
  expect(refusal(recorded(), { kind: 'version', version: '400', direction: 'up' })).toBe('the migrations of database default have no folder of version 400');
});

test('--goto V: up to V (applying the ones before it not yet applied), or down to it, newest first', () => {
  expect(plan(recorded(), { kind: 'goto', version: '200' })).toEqual(['up 100_a', 'up 200_b']);
  expect(plan(recorded('200'), { kind: 'goto', version: '300' })).toEqual(['up 100_a', 'up 300_c']);
  expect(plan(recorded('100', '200', '300', '1000'), { kind: 'goto', version: '200' })).toEqual(['down 1000_d', 'down 300_c']);
  expect(plan(recorded('100', '200'), { kind: 'goto', version: '200' })).toEqual([]);
  // At V already: the ones before it not yet applied are.
  expect(plan(recorded('200'), { kind: 'goto', version: '200' })).toEqual(['up 100_a']);
  expect(refusal(recorded(), { kind: 'goto', version: '250' })).toBe('the migrations of database default have no folder of version 250');
});

test('a version the engine’s CLI left dirty stops every step, except recording it by hand with --version V --skip-execution', () => {
  const dirty = new Map([
    ['100', false],
    ['200', true],
  ]);
  const stop =
    "version 200 is recorded as dirty on database default: a migration of the engine's CLI began there and did not finish. " +
    'Make the database right by hand, then record it with --version 200 --skip-execution (--type up: applied, --type down: not applied)';
  expect(refusal(dirty, { kind: 'up' })).toBe(stop);
  expect(refusal(dirty, { kind: 'down', count: 1 })).toBe(stop);
  expect(refusal(dirty, { kind: 'version', version: '200', direction: 'up' })).toBe(stop);
  expect(refusal(dirty, { kind: 'version', version: '300', direction: 'up' }, { skipExecution: true })).toBe(stop);
  expect(plan(dirty, { kind: 'version', version: '200', direction: 'up' }, { skipExecution: true })).toEqual(['up 200_b']);
  // Of several dirty versions, the oldest is named.
  const twoDirty = new Map([
    ['1000', true],
    ['300', true],
  ]);
  expect(refusal(twoDirty, { kind: 'up' })).toMatch(/^version 300 is recorded as dirty/);
  expect(plan(dirty, { kind: 'version', version: '200', direction: 'down' }, { skipExecution: true })).toEqual(['down 200_b']);
});
