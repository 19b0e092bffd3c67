import { checkTransactionControl } from './transactionControl';

describe('checkTransactionControl', () => {
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
    // PostgreSQL ends a -- comment at a carriage return too.
    ['insert into t values (1); --\rcommit; insert into t values (2)', 'COMMIT', 2],
    ['select 1; --\rrollback', 'ROLLBACK', 2],
    // Without the semicolon the word after the comment is a column alias (accepted below).
    // Keywords used as names do not hide what follows.
    ['create temp table function (begin int); commit;', 'COMMIT', 2],
    ['select begin, "end" from (select 1 as begin, 2 as "end") as atomic; end', 'END', 2],
    // With standard strings a backslash ends nothing.
    ["select 'a\\'; rollback; select 1", 'ROLLBACK', 2],
    ["select U&'\\0041'; abort", 'ABORT', 2],
    ['select $a$ $b$ $a$; commit', 'COMMIT', 2],
    ['/* /* nested */ still a comment */ begin', 'BEGIN', 1],
    // A later statement starts right after the semicolon before it, comments included: they are not its words.
    ['select 1; /* c */ commit', 'COMMIT', 2],
    ['select 1; -- c\ncommit', 'COMMIT', 2],
    ['select 1; start /* c */ -- d\ntransaction', 'START TRANSACTION', 2],
  ])('%j is refused at %s', async (text, statement, index) => {
    expect(await checkTransactionControl(text)).toEqual({ ok: true, control: { statement, index } });
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
    '  \n ',
    '-- only a comment',
    '/* only a comment */',
    ';;',
    'select 1 --\rrollback',
  ])('%j is accepted', async (text) => {
    expect(await checkTransactionControl(text)).toEqual({ ok: true });
  });

  test.each([
    ["select 'a", { message: 'unterminated quoted string at or near "\'a"', position: 8 }],
    ['select 1; /* commit', { message: 'unterminated /* comment at or near "/* commit"', position: 11 }],
    ['select $x$ ; commit', { message: 'unterminated dollar-quoted string at or near "$x$ ; commit"', position: 8 }],
    ['commit atomic', { message: 'syntax error at or near "atomic"', position: 8 }],
  ])('%j does not parse: PostgreSQL would refuse all of it', async (text, problem) => {
    expect(await checkTransactionControl(text)).toEqual({ ok: false, problem });
  });
});
