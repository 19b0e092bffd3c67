// run_sql text that mixes transaction control with the ways SQL hides words: -- comments ended by
// a line feed or a carriage return, nested /* */ comments, quoted strings with doubled quotes,
// backslashes in standard strings, E'' escapes, dollar quotes, quoted identifiers and keywords
// used as names. Two sides, checked on the rows afterwards:
// - a statement that really ends the transaction (COMMIT, ROLLBACK, …) makes the request fail, and
//   nothing of it is kept: plainly, under read_only, and inside a bulk whose later member fails;
// - the same words where they are no statement (inside a comment, a string, a name) run, and
//   write exactly what the text writes.
import fc from 'fast-check';
import { covers } from '../harness/cases';
import { useTarget } from '../harness/target';
import { generatedRuns } from '../harness/generatedRuns';

const target = useTarget();
const RUNS = generatedRuns('ENGINE_FUZZ_RUNS', 10, 60);
const seed = Number(process.env.ENGINE_FUZZ_SEED ?? Date.now() % 2 ** 31);

const CONTROL = ['commit', 'COMMIT AND CHAIN', 'end', 'end transaction', 'abort', 'rollback', 'ROLLBACK WORK', 'begin', 'start transaction', 'commit work'];

/** A transaction-control word spelled with odd case. */
const controlWord = fc.tuple(fc.constantFrom(...CONTROL), fc.boolean()).map(([w, upper]) => (upper ? w.toUpperCase() : w));

/** Places where a control word is not a statement; each is a whole expression or comment. */
const hidden = (word: string) =>
  fc.constantFrom(
    `/* ${word}; */`,
    `/* /* ${word}; */ ${word}; */`,
    `-- ${word};\n`,
    `-- ${word};\r\n`,
    `'${word}; ''${word}'''`,
    `'a\\'`,
    `E'\\'; ${word}; '`,
    `$$; ${word}; $$`,
    `$q$ ; ${word} ; $q$`,
    `"${word}"`,
  );

/** Noise between statements: whitespace and comments that end where PostgreSQL ends them. */
const gap = fc.constantFrom(' ', '\n', '\r', '\t', ' -- x\r', ' -- x\n', ' /* ; */ ', ' /* /* ; */ */ ');

/** A statement that reads hidden words: a select of string and name expressions. */
const quietSelect = fc.array(fc.constantFrom(...CONTROL), { minLength: 1, maxLength: 3 }).chain((words) =>
  fc.tuple(...words.map((w) => hidden(w))).map((parts) => {
    // Comments and names stand around a literal; strings are the selected values.
    const values = parts.map((p, i) => (p.startsWith('"') ? `1 as ${p}` : p.startsWith('/*') || p.startsWith('--') ? `${p} ${i}` : p));
    return `select ${values.join(', ')}`;
  }),
);

const count = async () => (await target.sql('select count(*)::int as n from fuzz_tx.probe'))[0]!.n as number;

beforeAll(async () => {
  await target.sql('drop schema if exists fuzz_tx cascade; create schema fuzz_tx; create table fuzz_tx.probe (id int)');
  await target.reset();
});

test(
  covers(
    ['err.bad-request.transaction-control', 'dec.bulk.atomic', 'dec.run_sql.read-only'],
    `generated text with a statement that ends the transaction keeps nothing, plainly, read_only and in a bulk (${RUNS} runs)`,
  ),
  async () => {
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(quietSelect, gap, controlWord, gap, fc.constantFrom('plain', 'read_only', 'bulk'), async (select, before, word, after, mode) => {
        const sql =
          mode === 'read_only'
            ? `${select};${before}${word};${after}set transaction read write; insert into fuzz_tx.probe values (2)`
            : `insert into fuzz_tx.probe values (1); ${select};${before}${word};${after}insert into fuzz_tx.probe values (2)`;
        const run = { type: 'run_sql', args: { sql, ...(mode === 'read_only' ? { read_only: true } : {}) } };
        const r =
          mode === 'bulk'
            ? await target.metadata(
                { type: 'bulk', args: [run, { type: 'track_table', args: { table: { schema: 'fuzz_tx', name: 'nope' } } }] },
                { endpoint: '/v1/query' },
              )
            : await target.metadata(run, { endpoint: '/v2/query' });
        const rows = await count();
        if (r.status !== 400 || rows !== 0) failures.push(`${mode}: ${JSON.stringify(sql)} answered ${r.status} and left ${rows} rows\n  ${r.curl}`);
        if (rows !== 0) await target.sql('delete from fuzz_tx.probe');
      }),
      { numRuns: RUNS * 3, seed },
    );
    process.stdout.write(`run_sql transaction control: ${RUNS * 3} generated texts, seed ${seed}, ${failures.length} kept something or were not refused\n`);
    expect(failures).toEqual([]);
  },
  120_000,
);

test(
  covers(
    ['op.run_sql', 'err.bad-request.transaction-control'],
    `generated text with the same words in comments, strings and names runs and writes what it says (${RUNS} runs)`,
  ),
  async () => {
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(quietSelect, gap, async (select, between) => {
        const sql = `insert into fuzz_tx.probe values (1);${between}${select};${between}insert into fuzz_tx.probe values (2)`;
        const r = await target.metadata({ type: 'run_sql', args: { sql } }, { endpoint: '/v2/query' });
        const rows = await target.sql('select id from fuzz_tx.probe order by id');
        if (r.status !== 200 || JSON.stringify(rows) !== JSON.stringify([{ id: 1 }, { id: 2 }]))
          failures.push(`${JSON.stringify(sql)} answered ${r.status} ${r.text.slice(0, 300)} and left ${JSON.stringify(rows)}\n  ${r.curl}`);
        await target.sql('delete from fuzz_tx.probe');
      }),
      { numRuns: RUNS, seed },
    );
    expect(failures).toEqual([]);
  },
  120_000,
);
