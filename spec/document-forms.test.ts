// The older metadata document forms, converted to version 2 before parsing (dec.metadata.older-forms).
import { upgradeDocument } from './document-forms';

const ok = (value: unknown) => ({ ok: true, value });
const failure = (path: string, message: string, code: string) => ({ ok: false, problem: { path, message, code } });

test('what is not an object, and version 2, pass through unchanged', () => {
  expect(upgradeDocument(5, '$')).toEqual(ok(5));
  expect(upgradeDocument(null, '$')).toEqual(ok(null));
  expect(upgradeDocument({ version: 2, tables: [], functions: ['f'] }, '$')).toEqual(ok({ version: 2, tables: [], functions: ['f'] }));
});

test('version 1 (no version key, or 1): functions named by FunctionName become entries; entries stay', () => {
  expect(upgradeDocument({ tables: [{ table: 'a' }], functions: ['f', { schema: 's', name: 'g' }, { function: 'h' }, 7] }, '$')).toEqual(
    ok({ version: 2, tables: [{ table: 'a' }], functions: [{ function: 'f' }, { function: { schema: 's', name: 'g' } }, { function: 'h' }, 7] }),
  );
  // No functions key is added where there was none; an entry with a name beside its function stays an entry.
  expect(upgradeDocument({ version: 1, tables: [] }, '$')).toStrictEqual(ok({ version: 2, tables: [] }));
  expect(upgradeDocument({ functions: [{ function: 'h', name: 'x' }] }, '$')).toEqual(ok({ version: 2, functions: [{ function: 'h', name: 'x' }] }));
  expect(upgradeDocument({ version: 1, functions: 'not a list' }, '$')).toEqual(ok({ version: 2, functions: 'not a list' }));
});

test('a version there is not is refused at its path', () => {
  expect(upgradeDocument({ version: 4 }, '$.args')).toEqual({
    ok: false,
    problem: { path: '$.args.version', message: 'unexpected value 4; expected one of 1, 2, 3' },
  });
});

test('version 3: the default source lifts its tables and functions; its configuration and customization are kept; empty parts go', () => {
  expect(upgradeDocument({ version: 3, actions: [{ name: 'a' }] }, '$')).toEqual(ok({ version: 2, actions: [{ name: 'a' }] }));
  const configuration = { connection_info: { database_url: { from_env: 'DB' }, isolation_level: 'serializable', pool_settings: { max_connections: 5 } } };
  expect(
    upgradeDocument(
      {
        version: 3,
        sources: [
          {
            name: 'default',
            kind: 'postgres',
            configuration,
            tables: [{ table: 't' }],
            functions: [{ function: 'f' }],
            logical_models: [],
            customization: { naming_convention: 'hasura-default' },
          },
        ],
        inherited_roles: [],
        network: {},
        api_limits: null,
      },
      '$',
    ),
  ).toEqual(
    ok({
      version: 2,
      tables: [{ table: 't' }],
      functions: [{ function: 'f' }],
      default_source: { configuration, customization: { naming_convention: 'hasura-default' } },
      // The other top-level parts stay as they are: the version 2 form takes them (dec.metadata.top-level).
      inherited_roles: [],
      network: {},
      api_limits: null,
    }),
  );
  // A default source that says nothing of itself takes the server's description away ({}); no default source keeps it.
  expect(upgradeDocument({ version: 3, sources: [{ name: 'default' }] }, '$')).toEqual(ok({ version: 2, default_source: {} }));
  expect(upgradeDocument({ version: 3, sources: [{ name: 'default', customization: {} }] }, '$')).toEqual(
    ok({ version: 2, default_source: { customization: {} } }),
  );
});

test('version 3: other sources keep their form under sources, in their order, the default source lifted wherever it stands', () => {
  const analytics = { name: 'analytics', kind: 'postgres', configuration: { connection_info: { database_url: 'postgres://a/b' } }, tables: [] };
  const archive = { name: 'archive', configuration: { connection_info: { database_url: { from_env: 'ARCHIVE_URL' } } } };
  expect(upgradeDocument({ version: 3, sources: [analytics, { name: 'default', tables: [{ table: 't' }] }, archive] }, '$')).toEqual(
    ok({ version: 2, tables: [{ table: 't' }], default_source: {}, sources: [analytics, archive] }),
  );
});

test('version 3: what this server cannot serve is refused at its path, with its message', () => {
  expect(upgradeDocument({ version: 3, sources: {} }, '$.args')).toEqual(failure('$.args.sources', 'expected Array', 'parse-failed'));
  expect(upgradeDocument({ version: 3, sources: ['default'] }, '$.args')).toEqual(failure('$.args.sources[0]', 'expected Object', 'parse-failed'));
  expect(upgradeDocument({ version: 3, sources: [{ name: 'default' }, { name: 'other', kind: 'mssql' }] }, '$')).toEqual(
    failure('$.sources[1].kind', 'the source "other" is of kind "mssql": this server serves PostgreSQL sources only', 'not-supported'),
  );
  expect(upgradeDocument({ version: 3, sources: [{ name: 'default', kind: 'mssql' }] }, '$')).toEqual(
    failure('$.sources[0].kind', 'the source "default" is of kind "mssql": this server serves PostgreSQL sources only', 'not-supported'),
  );
  expect(upgradeDocument({ version: 3, sources: [{ name: 'default', logical_models: [{ name: 'm' }] }] }, '$')).toEqual(
    failure('$.sources[0].logical_models', 'logical_models is not supported by this server yet', 'not-supported'),
  );
  // The default source's configuration is checked where it stands.
  expect(upgradeDocument({ version: 3, sources: [{ name: 'default', configuration: { connection_info: {} } }] }, '$.args')).toEqual({
    ok: false,
    problem: { path: '$.args.sources[0].configuration.connection_info', message: 'key "database_url" not found' },
  });
});

test('version 3: a customization of the default source is kept, renaming or not, graphql-default too; a name that is no GraphQL name is refused at its place', () => {
  const source = (customization: unknown) => ({ name: 'default', kind: 'postgres', customization, tables: [{ table: 't' }] });
  const empty = { root_fields: { namespace: null, prefix: '', suffix: null }, type_names: {}, naming_convention: 'hasura-default' };
  expect(upgradeDocument({ version: 3, sources: [source(empty)] }, '$')).toEqual(
    ok({ version: 2, tables: [{ table: 't' }], default_source: { customization: empty } }),
  );
  // Another source's default customization goes; its own form is kept.
  expect(
    upgradeDocument(
      { version: 3, sources: [{ name: 'other', kind: 'postgres', configuration: {}, customization: { naming_convention: 'hasura-default' } }] },
      '$',
    ),
  ).toEqual(ok({ version: 2, sources: [{ name: 'other', kind: 'postgres', configuration: {} }] }));
  const other = { name: 'other', kind: 'postgres', configuration: {}, customization: { naming_convention: 'graphql-default' } };
  expect(upgradeDocument({ version: 3, sources: [other] }, '$')).toEqual(ok({ version: 2, sources: [other] }));
  for (const renaming of [
    { naming_convention: 'hasura-default', root_fields: { prefix: 'lib_' } },
    { root_fields: { namespace: 'lib' } },
    { type_names: { suffix: '_t' } },
  ]) {
    expect(upgradeDocument({ version: 3, sources: [source(renaming)] }, '$')).toEqual(
      ok({ version: 2, tables: [{ table: 't' }], default_source: { customization: renaming } }),
    );
  }
  expect(upgradeDocument({ version: 3, sources: [source({ naming_convention: 'graphql-default' })] }, '$')).toEqual(
    ok({ version: 2, tables: [{ table: 't' }], default_source: { customization: { naming_convention: 'graphql-default' } } }),
  );
  expect(upgradeDocument({ version: 3, sources: [source({ type_names: { prefix: '9' } })] }, '$')).toEqual({
    ok: false,
    problem: { path: '$.sources[0].customization.type_names.prefix', message: '"9" is not a GraphQL name' },
  });
  expect(upgradeDocument({ version: 3, sources: [source({ naming: 'x' })] }, '$')).toEqual({
    ok: false,
    problem: { path: '$.sources[0].customization', message: 'unexpected key "naming"' },
  });
});
