// How many generated cases a property test tries: a short run in `npm test`, a long one under
// `npm run test:long` (ENGINE_TEST_LONG=1, as CI runs it), and exactly the number a variable names
// when it is set (to repeat a failing seed at length, or to search longer than either).

/** The runs of one generated test: `variable`'s value if set, else `long` under ENGINE_TEST_LONG=1, else `short`. */
export function generatedRuns(variable: string, short: number, long: number): number {
  const given = process.env[variable];
  if (given !== undefined && given !== '') {
    const runs = Number(given);
    if (!Number.isInteger(runs) || runs < 1) throw new Error(`${variable} must be a whole number of runs of at least 1, not ${JSON.stringify(given)}`);
    return runs;
  }
  return process.env.ENGINE_TEST_LONG === '1' ? long : short;
}
