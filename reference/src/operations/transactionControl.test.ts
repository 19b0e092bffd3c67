import { findTransactionControl, statementHeads } from './transactionControl';

describe('findTransactionControl', () => {
  test.each([
    ['commit', 'COMMIT', 1],
    ['insert into t values (1); COMMIT;', 'COMMIT', 2],
    ['select 1; end', 'END', 2],
    ['abort', 'ABORT', 1],
    ['begin; insert into t values (1)', 'BEGIN', 1],
    ['Start Transaction read write', 'START TRANSACTION', 1],
    ['rollback and chain', 'ROLLBACK', 1],
    ['rollback work', 'ROLLBACK', 1],
    ["commit prepared 'x'", 'COMMIT', 1],
    ["prepare transaction 'x'", 'PREPARE TRANSACTION', 1],
    ['/* a comment */ commit', 'COMMIT', 1],
    ['-- a comment\ncommit', 'COMMIT', 1],
    ["select 'a''b'; commit", 'COMMIT', 2],
    ["select E'a\\'b'; commit", 'COMMIT', 2],
    ['select $$x$$; commit', 'COMMIT', 2],
    ['create function f() returns int language sql begin atomic select 1; end; commit', 'COMMIT', 2],
  ])('%j is refused at %s', (text, statement, index) => {
    expect(findTransactionControl(text)).toEqual({ statement, index });
  });

  test.each([
    'select 1',
    "select 'commit; rollback'",
    'select "commit" from t',
    'select $$;commit;$$',
    'select $tag$ ; end; $tag$',
    "select E'\\'; commit; --'",
    '/* commit; /* nested */ end; */ select 1',
    '-- commit;\nselect 1',
    'savepoint s1; insert into t values (1); rollback to savepoint s1; release savepoint s1',
    'savepoint s1; rollback to s1; rollback transaction to s1; rollback work to savepoint s1',
    'create function f() returns int language sql begin atomic select 1; select case when true then 1 end; end; select f()',
    'create or replace procedure p() language sql begin atomic insert into t values (1); end',
    'do $$ begin perform 1; end $$',
    'select 1 as commit',
    '',
    ';;',
  ])('%j is accepted', (text) => {
    expect(findTransactionControl(text)).toBeUndefined();
  });

  test('statement heads see through comments and strings', () => {
    expect(statementHeads("select 'a;b'; /* x; */ insert into t values (1) ; -- end\n")).toEqual([['SELECT'], ['INSERT', 'INTO', 'T']]);
  });
});
