// Property-based fuzzing of replace_metadata (SPEC.md §4.3) over a generated database schema.
// Each run creates two to four tables with foreign keys, generates a valid document over them
// (harness/metadataDocuments.ts) and requires:
// - replace_metadata then export_metadata gives the same document (the export form of
//   decision dec.export.form), remote schemas with their role permissions and tracked functions with
//   their function permissions included; every tracked table and function answers under its root
//   field, and each role reads the functions it may (§4.4: by its select permission on the
//   function's table while the engine infers function permissions, else by its function permission too);
// - replace(export()) changes nothing but the resource version, which increases;
// - the document with one object the arguments refuse, or one the database lacks, is refused and
//   changes nothing, resource version included;
// - with allow_inconsistent_metadata the objects the database lacks are kept and reported, exactly
//   those, and drop_inconsistent_metadata leaves the valid document.
import { branded } from '../harness/brand';
import fc from 'fast-check';
import { covers } from '../harness/cases';
import { expectResponse } from '../harness/client';
import {
  FUZZ_SCHEMA,
  FUZZ_REMOTE_SDL,
  fuzzDocument,
  fuzzSchema,
  schemaSql,
  selectRootField,
  type Document,
  type FuzzTable,
  type TableEntry,
} from '../harness/metadataDocuments';
import { inconsistencies, type Inconsistency } from '../harness/metadataInconsistencies';
import { refusals, type Refusal } from '../harness/metadataRefusals';
import { graphQLServer, useMockServer } from '../harness/mockServer';
import { topLevelInconsistencies, topLevelParts, topLevelRefusals } from '../harness/topLevelParts';
import { useTarget, type Target } from '../harness/target';
import { inEngineOrder } from '../harness/engineOrder';
import { aggregateReads, defaultSourceCustomization, ownTypeName } from '../harness/sourceCustomizations';
import { generatedRuns } from '../harness/generatedRuns';
import { functionCall, functionInconsistencies, functionRefusals, functionSql, returnedTable, trackedFunctions } from '../harness/fuzzFunctions';

// The long form replaces on a server that does not infer function permissions, where they decide what a role sees.
const long = process.env.ENGINE_TEST_LONG === '1';
const handle = useTarget(long ? { profiles: ['no-function-inference'] } : {});
let target: Target;
beforeAll(() => {
  target = handle.profileTarget('no-function-inference') ?? handle;
});
const remote = useMockServer();
const RUNS = generatedRuns('ENGINE_FUZZ_RUNS', 4, 40);
const seed = Number(process.env.ENGINE_FUZZ_SEED ?? Date.now() % 2 ** 31);

const exported = async () => {
  const r = await target.metadata({ type: 'export_metadata', version: 2, args: {} });
  expect(r.status).toBe(200);
  return r.body as { resource_version: number; metadata: unknown };
};
const replace = (document: unknown, allowInconsistent?: boolean) =>
  target.metadata({
    type: 'replace_metadata',
    version: 2,
    args: { ...(allowInconsistent === undefined ? {} : { allow_inconsistent_metadata: allowInconsistent }), metadata: document },
  });

// With the top-level parts (decision dec.metadata.top-level): their objects refused and inconsistent too.
const allRefusals = (): Refusal[] => [...refusals(), ...topLevelRefusals<Document>(), ...functionRefusals<Document>()];
const allInconsistencies = (document: Document, sourceUrl?: string): Inconsistency[] => [
  ...inconsistencies(document, sourceUrl),
  ...topLevelInconsistencies<Document>(),
  ...functionInconsistencies<Document>(FUZZ_SCHEMA),
];

const generated = (remoteUrl: string, sourceUrl: string) =>
  fuzzSchema.chain((tables) =>
    fc.record({
      tables: fc.constant(tables),
      document: fuzzDocument(tables, remoteUrl, sourceUrl)
        .chain((d) => trackedFunctions(d).map((functions): Document => (functions.length ? { ...d, functions } : d)))
        .chain((d) =>
          fc
            .tuple(topLevelParts(d), defaultSourceCustomization)
            .map(([parts, own]): Document => ({ ...d, ...parts, ...(own ? { default_source: { customization: own } } : {}) })),
        ),
      inconsistent: fc.integer({ min: 0, max: allInconsistencies({ version: 2, tables: [{ table: { schema: 's', name: 't' } }] }).length - 1 }),
      refused: fc.integer({ min: 0, max: allRefusals().length - 1 }),
    }),
  );

let schemaSeen: string | undefined;
async function createSchema(tables: readonly FuzzTable[]) {
  const text = `${schemaSql(tables)}\n${functionSql(FUZZ_SCHEMA, tables)}`;
  if (text === schemaSeen) return;
  await target.reset();
  await target.sql(text);
  await target.metadata({ type: 'reload_metadata', args: {} });
  schemaSeen = text;
}

test(
  covers(
    [
      'op.replace_metadata.v2',
      'op.export_metadata.v2',
      'dec.export.form',
      'dec.envelope.resource-version',
      'rule.replace_metadata.1',
      'rule.replace_metadata.2',
      'op.drop_inconsistent_metadata',
      'op.get_inconsistent_metadata',
      'dec.source.forms',
      'dec.metadata.top-level',
      'dec.source.customization',
      'dec.metadata.default-source',
      'dec.function_permission.replace-metadata',
      'dec.functions.graphql',
      'err.parse-failed.empty-name',
      'err.parse-failed.role-name',
      'err.not-exists.function-in-postgres',
      'err.not-supported.function-untracked-table',
    ],
    `generated documents over generated tables round-trip; one bad object is refused and changes nothing; allowed inconsistencies are kept and reported (${RUNS} runs)`,
  ),
  async () => {
    const counts = { documents: 0, refusals: 0, inconsistencies: 0, remoteRelationships: 0, sources: 0, toSource: 0, functionPermissions: 0 };
    remote.use(graphQLServer('/fuzz', FUZZ_REMOTE_SDL, { a: () => 1 }));
    const config = await target.request('GET', '/v1alpha1/config', { headers: target.adminHeaders() });
    const inferred = (config.body as { is_function_permissions_inferred: boolean }).is_function_permissions_inferred;
    await fc.assert(
      fc.asyncProperty(generated(`${remote.url}/fuzz`, target.databaseUrl), async ({ tables, document, inconsistent, refused }) => {
        await createSchema(tables);
        const context = (what: string) => `${what} (seed ${seed}) ${JSON.stringify(document)}`;

        // A document without default_source keeps the server's (decision dec.metadata.default-source): an earlier run's goes first.
        if (!document.default_source) await target.metadata({ type: 'replace_metadata', args: { version: 2, tables: [], default_source: null } });
        // The valid document round-trips.
        const accepted = await replace(document);
        if (accepted.status !== 200) throw new Error(context(`a valid document was refused: ${accepted.text.slice(0, 400)}`));
        expect(accepted.body).toEqual({ is_consistent: true, inconsistent_objects: [] });
        const first = await exported();
        expect(first.metadata).toEqual(branded(inEngineOrder(document)));
        // The tables tracked in sources too (decision dec.source.forms), each read from its source.
        const inSources = (document.sources ?? []).flatMap((s) => s.tables as unknown as TableEntry[]);
        const fields = document.tables.map((t) => selectRootField(t));
        // The server's own tables' types under the default source's customization (decision dec.metadata.default-source).
        const own = document.default_source?.customization as Parameters<typeof ownTypeName>[0];
        const types = document.tables.map((t) => ownTypeName(own, t));
        expect((await target.graphql(`{ ${types.map((n, i) => `t${i}: __type(name: "${n}") { name }`).join(' ')} }`)).body).toEqual({
          data: Object.fromEntries(types.map((n, i) => [`t${i}`, { name: n }])),
        });
        // With the table's remote relationships (decision dec.remote-relationship.execution): the rows are none, the plan is whole.
        const remoteFields = (t: (typeof document.tables)[number]) =>
          (t.remote_relationships ?? [])
            .map((r) => {
              const name = (r as { name: string }).name;
              // To a table of a source (decision dec.remote-relationship.to-source): its rows' ids.
              return name.startsWith('ts_') ? `${name} { id }` : { rr_b: 'rr_b', rr_c: 'rr_c { __typename }', rr_old: 'rr_old' }[name];
            })
            .join(' ');
        const functions = document.functions ?? [];
        const calls = functions.map((f, i) => `g${i}: ${functionCall(f)} { id }`);
        const answer = await target.graphql(
          `{ ${fields.map((f, i) => `f${i}: ${f} { id ${remoteFields(document.tables[i]!)} }`).join(' ')} ${calls.join(' ')} }`,
        );
        expect(answer.body).toEqual({ data: Object.fromEntries([...fields.map((_f, i) => `f${i}`), ...calls.map((_c, i) => `g${i}`)].map((k) => [k, []])) });
        if (inSources.length > 0) {
          // Each source's root fields under its customization (decision dec.source.customization).
          const reads = (document.sources ?? []).map((s, i) =>
            aggregateReads(
              s.customization as Parameters<typeof aggregateReads>[0],
              (s.tables as unknown as TableEntry[]).map((t) => ({ select: selectRootField(t), type: String(t.configuration?.custom_name ?? t.table.name) })),
              `s${i}_`,
            ),
          );
          const read = await target.graphql(`{ ${reads.map((r) => r.text).join(' ')} }`);
          expect(read.body).toEqual({ data: Object.assign({}, ...reads.map((r) => r.answer)) });
        }

        // Each role reads the tables it has a select permission on (their filters compile).
        for (const role of ['r0', 'r1']) {
          // A permission without columns shows no table (decision dec.schema.always-valid).
          const readableTables = document.tables.filter((t) =>
            t.select_permissions?.some((p) => p.role === role && (p.permission.columns as unknown[] | '*').length > 0),
          );
          const readable = [
            ...readableTables.map((t) => selectRootField(t)),
            // Its functions: those of the tables it reads, where it has a function permission unless they are inferred.
            ...functions
              .filter((f) => readableTables.some((t) => t.table.name === returnedTable(f)) && (inferred || f.permissions?.some((p) => p.role === role)))
              .map(functionCall),
          ];
          const query = `{ __typename ${readable.map((f, i) => `f${i}: ${f} { __typename }`).join(' ')} }`;
          const headers = { ...target.adminHeaders(), 'x-engine-role': role, 'x-engine-user-id': '1', 'x-engine-user-name': 'fuzz' };
          expect([role, (await target.graphql(query, undefined, { headers })).body]).toEqual([
            role,
            { data: { __typename: 'query_root', ...Object.fromEntries(readable.map((_f, i) => [`f${i}`, []])) } },
          ]);
        }

        // replace(export()) changes nothing but the resource version.
        expect((await replace(first.metadata)).status).toBe(200);
        const second = await exported();
        expect(second.metadata).toEqual(branded(inEngineOrder(document)));
        expect(second.resource_version).toBeGreaterThan(first.resource_version);

        // One refused object: 400, nothing changed.
        const refusal = allRefusals()[refused]!;
        const refusedAnswer = await replace(refusal.apply(document));
        if (refusedAnswer.status !== 400)
          throw new Error(context(`${refusal.kind} was not refused: ${refusedAnswer.status} ${refusedAnswer.text.slice(0, 300)}`));
        expect([refusal.kind, refusedAnswer.body]).toEqual([refusal.kind, refusal.answer(document)]);
        expect(await exported()).toEqual(second);
        counts.refusals++;

        // One object the database lacks: refused without allow_inconsistent_metadata…
        const missing = allInconsistencies(document, target.databaseUrl)[inconsistent]!;
        const withMissing = missing.apply(document) as Document;
        const strict = await replace(withMissing, false);
        expect([missing.kind, strict.status]).toEqual([missing.kind, 400]);
        expect(strict.body).toEqual({
          path: '$.args',
          error: 'cannot continue due to inconsistent metadata',
          code: 'unexpected',
          internal: [branded(missing.reported)],
        });
        expect(await exported()).toEqual(second);
        // …kept and reported with it, and dropped by drop_inconsistent_metadata.
        const allowed = await replace(withMissing, true);
        expect([missing.kind, allowed.status, allowed.body]).toEqual([
          missing.kind,
          200,
          { is_consistent: false, inconsistent_objects: [branded(missing.reported)] },
        ]);
        expectResponse(await target.metadata({ type: 'get_inconsistent_metadata', args: {} }), 200, [branded(missing.reported)]);
        const kept = await exported();
        expect(kept.metadata).toEqual(branded(inEngineOrder(withMissing)));
        expect(kept.resource_version).toBeGreaterThan(second.resource_version);
        expect((await target.graphql(`{ ${fields[0]} { id } }`)).body).toEqual({ data: { [fields[0]!]: [] } });
        expectResponse(await target.metadata({ type: 'drop_inconsistent_metadata', args: {} }), 200, { message: 'success' });
        expectResponse(await target.metadata({ type: 'get_inconsistent_metadata', args: {} }), 200, []);
        expect((await exported()).metadata).toEqual(branded(inEngineOrder(missing.afterDrop?.(document) ?? document)));
        counts.inconsistencies++;
        counts.documents++;
        if (document.tables.some((t) => t.remote_relationships?.length)) counts.remoteRelationships++;
        if (document.sources?.length) counts.sources++;
        if (document.tables.some((t) => JSON.stringify(t.remote_relationships ?? []).includes('"to_source"'))) counts.toSource++;
        if (document.functions?.some((f) => f.permissions)) counts.functionPermissions++;
      }),
      { numRuns: RUNS, seed },
    );
    process.stdout.write(
      `metadata replacement fuzz: ${counts.documents} documents round-tripped (${counts.remoteRelationships} with remote relationships, ${counts.toSource} of them to tables of sources, ${counts.sources} with sources, ${counts.functionPermissions} with function permissions, ${inferred ? '' : 'not '}inferred), ${counts.refusals} refused objects and ${counts.inconsistencies} inconsistencies checked, seed ${seed}\n`,
    );
    expect({ ...counts, remoteRelationships: 0, sources: 0, toSource: 0, functionPermissions: 0 }).toEqual({
      documents: RUNS,
      refusals: RUNS,
      inconsistencies: RUNS,
      remoteRelationships: 0,
      sources: 0,
      toSource: 0,
      functionPermissions: 0,
    });
  },
  600_000,
);
