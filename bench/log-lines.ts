// What a request's log line costs the server: CPU per line, 4 lines a turn of the event loop (as a
// busy server answers several requests a turn), stdout a pipe read by this process. pino with its
// synchronous and its asynchronous destination (the line built from an object, as the fast path
// once did), and the server's logger (log.ts): the same object through log(), and the text of the
// fast path through logJson(). Each writer runs in a process of its own.
import { spawn } from 'node:child_process';
import { median, ROOT } from './processes';

const LINES = 100_000;
const WRITERS = ['pino, synchronous destination', 'pino, asynchronous destination', 'log.ts, log()', 'log.ts, logJson()'] as const;

/** The child: writes LINES lines with `writer`, then prints its CPU µs per line on stderr. */
const CHILD = `
require('./scripts/register-ts.js').register();
const pino = require('pino');
const { createLogger } = require('./reference/src/log.ts');
const { graphqlRequestDetail } = require('./reference/src/http/graphqlLog.ts');
const writer = process.argv[1];
const options = { level: 'info', base: null, timestamp: () => ',"timestamp":"' + new Date().toISOString() + '"', formatters: { level: (label) => ({ level: label }) } };
const viaPino = (sync) => {
  const logger = pino(options, pino.multistream([{ level: 'debug', stream: pino.destination({ dest: 1, sync }) }, { level: 'error', stream: pino.destination({ dest: 2, sync: true }) }], { dedupe: true }));
  return (detail) => logger.info({ type: 'http-log', detail });
};
const server = createLogger('info');
const role = 'admin';
const detail = (i) => ({ request_id: '3b0f2a4e-8a8e-4d7e-9a3e-0c1f2d3e4f50', method: 'POST', url: '/v1/graphql', status: 200, duration_ms: 1.234567 + i, ...(role !== undefined ? { role } : {}), operation: 'graphql:query' });
const write = {
  'pino, synchronous destination': ((log) => (i) => log(detail(i)))(viaPino(true)),
  'pino, asynchronous destination': ((log) => (i) => log(detail(i)))(viaPino(false)),
  'log.ts, log()': (i) => server.log('info', 'http-log', detail(i)),
  'log.ts, logJson()': (i) => server.logJson('info', 'http-log', graphqlRequestDetail('3b0f2a4e-8a8e-4d7e-9a3e-0c1f2d3e4f50', '/v1/graphql', 200, 1.234567 + i, role, 'graphql:query', undefined)),
}[writer];
let i = 0;
const started = process.cpuUsage();
const turn = () => {
  for (let k = 0; k < 4; k++) write(i++);
  if (i < ${LINES}) return void setImmediate(turn);
  setImmediate(() => {
    const used = process.cpuUsage(started);
    process.stderr.write(String((used.user + used.system) / ${LINES}));
  });
};
turn();
`;

function run(writer: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CHILD, writer], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let lines = 0;
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => void (lines += chunk.filter((b) => b === 10).length));
    child.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString()));
    child.on('exit', () => (lines === LINES ? resolve(Number(err)) : reject(new Error(`${writer}: ${lines} lines; ${err}`))));
  });
}

export async function logLineCost(log: (line: string) => void, rounds = 5): Promise<string> {
  const results = new Map<string, number[]>(WRITERS.map((w) => [w, []]));
  // Rounds alternate the writers, so that a change of the machine's speed falls on all of them.
  for (let round = 0; round < rounds; round++) for (const writer of WRITERS) results.get(writer)!.push(await run(writer));
  for (const [writer, values] of results) log(`${writer}: ${values.map((v) => v.toFixed(2)).join(', ')} µs a line`);
  return [
    `${LINES.toLocaleString('en')} \`http-log\` lines, 4 a turn of the event loop, stdout a pipe read by the bench; CPU of the writing process (user + system) per line, median of ${rounds} rounds alternated.`,
    '',
    '| writer | CPU µs a line |',
    '|---|---|',
    ...WRITERS.map((w) => `| ${w} | ${median(results.get(w)!).toFixed(2)} |`),
  ].join('\n');
}
