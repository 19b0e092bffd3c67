// What commitOperation answers before it has a connection: a database that cannot be connected to.
// (Everything after is on a database: the conformance cases and engine/*.test.ts hold it.)
import type { ParsedOperation } from '../operations/envelope';
import { EngineError } from '../errors';
import { commitOperation, type CommitSources } from './metadataCommit';

const refusedBy = async (rejection: unknown) => {
  const sources = { pool: { connect: () => Promise.reject(rejection) }, served: { snapshot: undefined }, remotes: {} } as unknown as CommitSources;
  const error: unknown = await commitOperation(sources, { type: 'export_metadata', args: {} } as ParsedOperation).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof EngineError)) throw new Error(`expected an EngineError, got ${String(error)}`);
  return { status: error.status, body: error.toBody() };
};

test("a database that cannot be connected to: 500 connection error with the driver's words [err.postgres-error.connection]", async () => {
  expect(await refusedBy(new Error('connect ECONNREFUSED 127.0.0.1:1'))).toEqual({
    status: 500,
    body: { path: '$', error: 'connection error', code: 'postgres-error', internal: { message: 'connect ECONNREFUSED 127.0.0.1:1' } },
  });
  expect(await refusedBy('the pool is ending')).toEqual({
    status: 500,
    body: { path: '$', error: 'connection error', code: 'postgres-error', internal: { message: 'the pool is ending' } },
  });
});
