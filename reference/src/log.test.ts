// The log's lines: what log() and logJson() write, the threshold, and stdout's lines gathered per
// turn of the event loop yet all written before the process exits, however it exits.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createLogger } from './log';

const ROOT = join(__dirname, '..', '..');
/** Timestamps vary: each line's is checked for its form, then left out. */
const TIMESTAMP = /"timestamp":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/;
const withoutTimestamp = (line: string) => {
  expect(line).toMatch(TIMESTAMP);
  return line.replace(TIMESTAMP, '"timestamp":"T"');
};

test('a line of JSON text already is written as log() writes the same detail', () => {
  const lines: string[] = [];
  const logger = createLogger('info', { write: (line) => void lines.push(line) });
  logger.log('info', 'http-log', { request_id: 'r', status: 200, role: 'user' });
  logger.logJson('info', 'http-log', '{"request_id":"r","status":200,"role":"user"}');
  logger.logJson('error', 'type "quoted"', '{}');
  expect(lines.map(withoutTimestamp)).toEqual([
    '{"level":"info","timestamp":"T","type":"http-log","detail":{"request_id":"r","status":200,"role":"user"}}\n',
    '{"level":"info","timestamp":"T","type":"http-log","detail":{"request_id":"r","status":200,"role":"user"}}\n',
    '{"level":"error","timestamp":"T","type":"type \\"quoted\\"","detail":{}}\n',
  ]);
});

test('below the threshold nothing is written, and enabled() says so', () => {
  const lines: string[] = [];
  const logger = createLogger('warn', { write: (line) => void lines.push(line) });
  logger.logJson('info', 'http-log', '{}');
  logger.logJson('debug', 'http-log', '{}');
  logger.log('info', 'http-log', {});
  logger.logJson('warn', 'w', '{}');
  expect(lines.map(withoutTimestamp)).toEqual(['{"level":"warn","timestamp":"T","type":"w","detail":{}}\n']);
  expect((['debug', 'info', 'warn', 'error'] as const).map((level) => logger.enabled(level))).toEqual([false, false, true, true]);
  expect(createLogger('silent').enabled('error')).toBe(false);
});

/** A process that logs with the real streams, then ends as `ending` says; its stdout and stderr. */
function run(ending: string): { status: number | null; stdout: string[]; stderr: string[] } {
  const script = `
    require('./scripts/register-ts.js').register();
    const { writeSync } = require('node:fs');
    const logger = require('./reference/src/log.ts').createLogger('info');
    logger.log('info', 'startup', { n: 1 });
    logger.logJson('info', 'http-log', '{"n":2}');
    ${ending}`;
  const r = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 30_000, maxBuffer: 64 * 1024 * 1024 });
  const lines = (text: string) => text.split('\n').filter((l) => l !== '' && !l.startsWith('    at '));
  return { status: r.status, stdout: lines(r.stdout).map((l) => (l.startsWith('{') ? withoutTimestamp(l) : l)), stderr: lines(r.stderr) };
}

const FIRST_TWO = ['{"level":"info","timestamp":"T","type":"startup","detail":{"n":1}}', '{"level":"info","timestamp":"T","type":"http-log","detail":{"n":2}}'];

test('the lines of a turn are written at its end, before what the next turn writes', () => {
  // Queued after the logger's own end of the turn, so it runs after it however late the loop turns
  // (a timer could fall due first on a loaded machine); written before the lines unless they were written then.
  expect(run(`setImmediate(() => { writeSync(1, 'next turn\\n'); process.exit(0); });`)).toEqual({
    status: 0,
    stdout: [...FIRST_TWO, 'next turn'],
    stderr: [],
  });
});

test('process.exit in the same turn keeps the lines logged before it', () => {
  expect(run(`logger.log('error', 'fatal', { why: 'x' }); process.exit(3);`)).toEqual({
    status: 3,
    stdout: FIRST_TWO,
    stderr: [expect.stringMatching(/^\{"level":"error","timestamp":"[^"]+","type":"fatal","detail":\{"why":"x"\}\}$/)],
  });
});

test('an uncaught exception keeps the lines logged before it', () => {
  const r = run(`throw new Error('boom');`);
  expect({ status: r.status, stdout: r.stdout, boom: r.stderr.some((l) => l.includes('Error: boom')) }).toEqual({ status: 1, stdout: FIRST_TWO, boom: true });
});

test('many lines in one turn, then an exit: every one is written, in order', () => {
  const r = run(`for (let i = 3; i <= 20000; i++) logger.logJson('info', 'http-log', '{"n":' + i + '}'); process.exit(0);`);
  expect(r.status).toBe(0);
  expect(r.stdout.map((l) => Number(/"n":(\d+)/.exec(l)?.[1]))).toEqual(Array.from({ length: 20000 }, (_, i) => i + 1));
});

test('an error line of JSON text goes to stderr, the others to stdout', () => {
  expect(run(`logger.logJson('error', 'fatal', '{"why":"y"}'); logger.logJson('warn', 'w', '{}'); process.exit(0);`)).toEqual({
    status: 0,
    stdout: [...FIRST_TWO, '{"level":"warn","timestamp":"T","type":"w","detail":{}}'],
    stderr: [expect.stringMatching(/^\{"level":"error","timestamp":"[^"]+","type":"fatal","detail":\{"why":"y"\}\}$/)],
  });
});
