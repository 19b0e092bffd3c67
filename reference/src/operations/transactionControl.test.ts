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
    expect(await checkTransactionControl(text)).toEqual({ ok: true, control: { statement, index }, onlyRows: expect.any(Boolean) });
  });

  test.each([
    ['select 1', true],
    ["select 'commit; rollback'", true],
    ['select "commit" from t', true],
    ['select $$;commit;$$', true],
    ['select $tag$ ; end; $tag$', true],
    ["select E'\\'; commit; --'", true],
    ['/* commit; /* nested */ end; */ select 1', true],
    ['-- commit;\nselect 1', true],
    ['savepoint s1; insert into t values (1); rollback to savepoint s1; release savepoint s1', true],
    ['savepoint s1; rollback to s1; rollback transaction to s1; rollback work to savepoint s1', true],
    ['create function f() returns int language sql begin atomic select 1; select case when true then 1 end; end; select f()', false],
    ['create or replace procedure p() language sql begin atomic insert into t values (1); end', false],
    ['do $$ begin perform 1; end $$', false],
    ['select 1 as commit', true],
    ['', true],
    ['  \n ', true],
    ['-- only a comment', true],
    ['/* only a comment */', true],
    [';;', true],
    ['select 1 --\rrollback', true],
  ])('%j is accepted (only rows: %s)', async (text, onlyRows) => {
    expect(await checkTransactionControl(text)).toEqual({ ok: true, onlyRows });
  });

  test.each([
    ['insert into t values (1); update t set a = 2; delete from t; merge into t using u on true when matched then do nothing', true],
    ['values (1); table t; with x as (select 1) select * from x', true],
    ['alter table t add column c int', false],
    ['select 1; comment on table t is $$x$$', false],
    ['copy t from stdin', false],
    ['explain analyze insert into t values (1)', false],
    ['call p()', false],
  ])('%j: only rows %s', async (text, onlyRows) => {
    expect(await checkTransactionControl(text)).toEqual({ ok: true, onlyRows });
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
