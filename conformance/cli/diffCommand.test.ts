// `engine-conformance diff` before any scenario runs: help, bad usage and an unreachable target,
// each with its exit code and one clear line.
import { capturedOutput } from './capturedOutput';
import { diffMain } from './diffCommand';
import { DIFF_USAGE } from './diffArguments';

const run = async (argv: string[]) => {
  const out = capturedOutput();
  const err = capturedOutput();
  const code = await diffMain(argv, out.stream, err.stream);
  return { code, out: out.text(), err: err.text() };
};

test('--help prints the usage; bad usage exits 2 with the reason and the usage', async () => {
  expect(await run(['--help'])).toEqual({ code: 0, out: `${DIFF_USAGE}\n`, err: '' });
  expect(await run(['--target', 'http://a'])).toEqual({
    code: 2,
    out: '',
    err: `engine-conformance diff: --database is required\n\n${DIFF_USAGE}\n`,
  });
});

test('an unreachable target: exit 2, naming which of the two', async () => {
  const r = await run([
    ...['--target', 'http://127.0.0.1:65531', '--database', 'postgres://u:p@127.0.0.1:65531/a'],
    ...['--against', 'http://127.0.0.1:65531', '--against-database', 'postgres://u:p@127.0.0.1:65531/b'],
  ]);
  expect(r).toEqual({
    code: 2,
    out: '',
    err: 'engine-conformance diff: A (--target http://127.0.0.1:65531): cannot reach http://127.0.0.1:65531: ECONNREFUSED\n',
  });
});
