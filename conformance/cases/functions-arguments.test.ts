// The arguments of a tracked function as the engine types them (decision dec.functions.argument-types):
// every argument a nullable field of `<function>_args` (PostgreSQL takes null for any of them), the
// `args` argument required when some argument has no default; one without a default may be null but
// not left out.
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { useTarget } from '../harness/target';

const target = useTarget();

beforeAll(async () => {
  await target.sql(`drop schema if exists fnargs cascade; create schema fnargs;
    create table fnargs.word (id int primary key, text text not null);
    insert into fnargs.word values (1, 'alpha'), (2, 'beta'), (3, 'gamma');
    create function fnargs.words_like(pattern text, longest int default 100) returns setof fnargs.word language sql stable as
      $$ select * from fnargs.word where (pattern is null or text like pattern) and length(text) <= longest $$;
    create function fnargs.words_up_to(longest int default 4) returns setof fnargs.word language sql stable as
      $$ select * from fnargs.word where length(text) <= longest $$;`);
  const r = await target.metadata({
    type: 'bulk',
    args: [
      { type: 'reload_metadata', args: {} },
      { type: 'clear_metadata', args: {} },
      { type: 'track_table', args: { table: { schema: 'fnargs', name: 'word' } } },
      { type: 'track_function', args: { function: { schema: 'fnargs', name: 'words_like' } } },
      { type: 'track_function', args: { function: { schema: 'fnargs', name: 'words_up_to' } } },
    ],
  });
  expectResponse(r, 200);
});

const TYPE = '{ kind name ofType { kind name } }';

test(
  covers(
    ['dec.functions.argument-types', 'op.track_function.v1'],
    'every argument is nullable; args is required when an argument has no default, and optional otherwise',
  ),
  async () => {
    const r = await target.graphql(`{
      like: __type(name: "fnargs_words_like_args") { inputFields { name type ${TYPE} } }
      root: __type(name: "query_root") { fields { name args { name type ${TYPE} } } } }`);
    const data = (r.body as { data: { like: { inputFields: unknown[] }; root: { fields: { name: string; args: { name: string }[] }[] } } }).data;
    expect(data.like.inputFields).toEqual([
      { name: 'pattern', type: { kind: 'SCALAR', name: 'String', ofType: null } },
      { name: 'longest', type: { kind: 'SCALAR', name: 'Int', ofType: null } },
    ]);
    const argsOf = (field: string) => data.root.fields.find((f) => f.name === field)!.args.find((a) => a.name === 'args');
    expect(argsOf('fnargs_words_like')).toEqual({
      name: 'args',
      type: { kind: 'NON_NULL', name: null, ofType: { kind: 'INPUT_OBJECT', name: 'fnargs_words_like_args' } },
    });
    expect(argsOf('fnargs_words_up_to')).toEqual({ name: 'args', type: { kind: 'INPUT_OBJECT', name: 'fnargs_words_up_to_args', ofType: null } });
  },
);

test(
  covers(
    ['dec.functions.argument-types', 'op.track_function.v1'],
    'an argument without a default may be null, but not left out; defaults apply to those left out',
  ),
  async () => {
    expectResponse(await target.graphql('{ fnargs_words_like(args: {pattern: "%a", longest: 4}, order_by: {id: asc}) { text } }'), 200, {
      data: { fnargs_words_like: [{ text: 'beta' }] },
    });
    expectResponse(await target.graphql('{ fnargs_words_like(args: {pattern: null}, order_by: {id: asc}) { id } }'), 200, {
      data: { fnargs_words_like: [{ id: 1 }, { id: 2 }, { id: 3 }] },
    });
    expectResponse(await target.graphql('{ fnargs_words_like(args: {longest: 4}) { id } }'), 200, {
      errors: [{ message: 'Non default arguments cannot be omitted', extensions: { path: '$', code: 'not-supported' } }],
    });
    expectResponse(await target.graphql('{ fnargs_words_up_to { text } }'), 200, { data: { fnargs_words_up_to: [{ text: 'beta' }] } });
  },
);
