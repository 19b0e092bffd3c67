// `npm run bench`: query speed against PostGraphile and the bare-server ceiling, and metadata
// operations at scale, event capture and delivery, subscriptions and streams at scale, @cached; prints the tables and writes them to bench/RESULTS.md.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cachedSpeed } from './cached';
import { crashCommits } from './crash-commits';
import { eventsScale } from './events';
import { fairShareWait } from './fair-share-wait';
import { memoryBound } from './memory';
import { logLineCost } from './log-lines';
import { metadataScale } from './metadata-scale';
import { mutationSpeed } from './mutations';
import { querySpeed } from './query-speed';
import { remoteBound } from './remote-bound';
import { streamsScale } from './streams';
import { subscriptionsScale } from './subscriptions';

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

async function main(): Promise<void> {
  const only = process.argv[3];
  const sections: string[] = [`# Benchmark results\n\nProduced by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}.`];
  if (!only || only === 'queries') sections.push(`## Query speed\n\n${await querySpeed(log)}`);
  if (!only || only === 'log') sections.push(`## The request log line\n\n${await logLineCost(log)}`);
  if (!only || only === 'mutations') sections.push(`## Nested inserts and update_many\n\n${await mutationSpeed(log)}`);
  if (!only || only === 'cached') sections.push(`## @cached\n\n${await cachedSpeed(log)}`);
  if (!only || only === 'metadata') sections.push(`## Metadata at scale\n\n${await metadataScale(log)}`);
  if (!only || only === 'events') sections.push(`## Event triggers at scale\n\n${await eventsScale(log)}`);
  if (!only || only === 'subscriptions') sections.push(`## Subscriptions at scale\n\n${await subscriptionsScale(log)}`);
  if (!only || only === 'streams') sections.push(`## Streaming subscriptions at scale\n\n${await streamsScale(log)}`);
  if (!only || only === 'memory') sections.push(`## Memory under hostile queries\n\n${await memoryBound(log)}`);
  // Reliability figures (docs/reliability.md): only when asked for by name.
  if (only === 'fair') sections.push(`## A third role's wait while two roles fill the pool\n\n${await fairShareWait(log)}`);
  if (only === 'remote') sections.push(`## Memory while roles ask a remote for large answers\n\n${await remoteBound(log)}`);
  if (only === 'crash') sections.push(`## Commits over two databases under kill -9\n\n${await crashCommits(log)}`);
  const text = sections.join('\n\n') + '\n';
  process.stdout.write(text);
  if (!only) writeFileSync(join(__dirname, 'RESULTS.md'), text);
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
