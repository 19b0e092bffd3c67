// The ceiling for any Node server on this machine: node:http, one pooled SQL statement per
// request (the very statement the reference compiles), its JSON text written as it is.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Pool } from 'pg';

const statements = JSON.parse(readFileSync(process.env.BARE_STATEMENTS!, 'utf8')) as Record<string, { text: string; values: unknown[] }>;
const pool = new Pool({ connectionString: process.env.BARE_DATABASE_URL, max: 10 });

createServer((req, res) => {
  const statement = statements[(req.url ?? '').slice(1)];
  req.resume();
  req.on('end', () => {
    if (!statement) {
      res.writeHead(404).end();
      return;
    }
    pool.query<{ data: string }>(statement).then(
      (r) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"data":${r.rows[0]!.data}}`);
      },
      (e: Error) => res.writeHead(500).end(e.message),
    );
  });
}).listen(Number(process.env.BARE_PORT), '127.0.0.1');
