// Remote relationships whose remote side cannot be served (decision dec.remote-relationship.forms),
// on a document, remotes and a database given by hand.
import { buildSchema } from 'graphql';
import type { MetadataDocument } from '../../../spec';
import { introspectionOf } from '../db/introspection';
import { contributionOf } from '../metadata/remoteSchemas';
import { customizedContribution, customizedRemote, type CustomizedRemote } from './customization';
import { remoteRelationshipProblems } from './relationshipProblems';
import { dbColumn, dbTable } from '../../test-support/introspectionRows';

const geoSchema = buildSchema('type Query { country(code: String): Country } type Country { name: String }');
const geo = { contribution: contributionOf('geo', geoSchema) };
const toRemote = (remote: string, field = 'country') => ({
  to_remote_schema: { remote_schema: remote, lhs_fields: ['country'], remote_field: { [field]: { arguments: { code: '$country' } } } },
});
const artist = { schema: 'public', name: 'artist' };
const relationships = [
  { name: 'origin', definition: toRemote('geo') },
  { name: 'nowhere', definition: toRemote('missing') },
  { name: 'broken', definition: toRemote('unserved') },
  { name: 'lost', definition: toRemote('geo', 'nation') },
  { name: 'local', definition: { to_source: { source: 'default', table: artist, relationship_type: 'object', field_mapping: { id: 'id' } } } },
];
const documentOf = (parts: Partial<MetadataDocument> = {}) =>
  ({
    version: 2,
    remote_schemas: [{ name: 'geo' }, { name: 'unserved' }],
    tables: [{ table: artist, remote_relationships: relationships }],
    ...parts,
  }) as unknown as MetadataDocument;
const artistDb = dbTable('artist', 1, [dbColumn('id', 'int4'), dbColumn('country', 'text')], ['id']);
const db = introspectionOf([artistDb], [artistDb]);

const problem = (name: string, reason: string) => ({
  object: {
    type: 'remote_relationship',
    reason: `remote relationship "${name}" of table "artist" cannot be served: ${reason}`,
    definition: { table: artist, name, definition: relationships.find((r) => r.name === name)!.definition },
  },
  message: `remote relationship "${name}" of table "artist" cannot be served: ${reason}`,
});
const found = (problems: ReturnType<typeof remoteRelationshipProblems>) =>
  problems.map((p) => ({ object: p.object, message: p.error.message, id: p.error.id, path: p.error.path }));
const expected = [
  problem('nowhere', 'the remote schema "missing" does not exist'),
  problem('broken', 'the remote schema "unserved" cannot be served'),
  problem('lost', 'field "nation" not found in the query root'),
].map((p) => ({ ...p, id: 'err.remote-schema-error.remote-relationship', path: '$.args' }));

test("a remote missing, one that cannot be served, and a path the remote's schema lacks; a relationship to a source left to the sources", () => {
  const problems = remoteRelationshipProblems(documentOf(), [geo], db);
  expect(found(problems)).toEqual(expected);
  // The server's own tables' inconsistencies name no source.
  expect(Object.keys(problems[0]!.object)).toEqual(['type', 'reason', 'definition']);
  expect(found(remoteRelationshipProblems(documentOf(), [geo]))).toEqual(expected);
});

test('no remote usable: every relationship to a remote schema', () => {
  expect(found(remoteRelationshipProblems(documentOf(), [], db)).map((p) => (p.object as { definition: { name: string } }).definition.name)).toEqual([
    'origin',
    'nowhere',
    'broken',
    'lost',
  ]);
  expect(found(remoteRelationshipProblems(documentOf({ remote_schemas: undefined }), [], db))[0]!.message).toBe(
    'remote relationship "origin" of table "artist" cannot be served: the remote schema "geo" does not exist',
  );
});

test('a table the database lacks, or a relationship whose columns it lacks, is left to be reported as that', () => {
  const without = introspectionOf([], []);
  expect(remoteRelationshipProblems(documentOf(), [geo], without)).toEqual([]);
  const noCountry = dbTable('artist', 1, [dbColumn('id', 'int4')], ['id']);
  expect(remoteRelationshipProblems(documentOf(), [geo], introspectionOf([noCountry], [noCountry]))).toEqual([]);
  // Without a database to look at, the remote side is checked alone.
  expect(found(remoteRelationshipProblems(documentOf(), [geo])).length).toBe(3);
});

test("a source's table: its relationships too, the inconsistency naming the source, whatever the server's own database has", () => {
  const document = documentOf({
    tables: [],
    sources: [{ name: 'other', kind: 'postgres', tables: [{ table: artist, remote_relationships: relationships }] }],
  } as never);
  const withSource = expected.map((p) => ({ ...p, object: { ...p.object, source: 'other' } }));
  expect(found(remoteRelationshipProblems(document, [geo], introspectionOf([], [])))).toEqual(withSource);
  // A table of that name in the server's own database, without the column, is not the source's table.
  const noCountry = dbTable('artist', 1, [dbColumn('id', 'int4')], ['id']);
  expect(found(remoteRelationshipProblems(document, [geo], introspectionOf([noCountry], [noCountry])))).toEqual(withSource);
});

test("a customized remote: the path is in the remote's own names, found under its namespace", () => {
  const customized = customizedRemote(geoSchema, { root_fields_namespace: 'geo_ns', type_names: { prefix: 'G_' } }) as CustomizedRemote;
  const usable = [{ contribution: customizedContribution('geo', customized), names: customized }];
  const onlyOrigin = documentOf({ tables: [{ table: artist, remote_relationships: [relationships[0]!, relationships[3]!] }] } as never);
  expect(found(remoteRelationshipProblems(onlyOrigin, usable, db))).toEqual([expected[2]]);
  // Without its names, the namespace field is all there is at the root.
  expect(found(remoteRelationshipProblems(onlyOrigin, [{ contribution: usable[0]!.contribution }], db)).map((p) => p.message)).toEqual([
    'remote relationship "origin" of table "artist" cannot be served: field "country" not found in the query root',
    'remote relationship "lost" of table "artist" cannot be served: field "nation" not found in the query root',
  ]);
});
