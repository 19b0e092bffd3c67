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

test('version 3: the default source lifts its tables and functions; its configuration and empty parts go', () => {
  expect(upgradeDocument({ version: 3, actions: [{ name: 'a' }] }, '$')).toEqual(ok({ version: 2, actions: [{ name: 'a' }] }));
  expect(
    upgradeDocument(
      {
        version: 3,
        sources: [
          {
            name: 'default',
            kind: 'postgres',
            configuration: { x: 1 },
            tables: [{ table: 't' }],
            functions: [{ function: 'f' }],
            logical_models: [],
            customization: {},
          },
        ],
        inherited_roles: [],
        network: {},
        api_limits: null,
      },
      '$',
    ),
  ).toEqual(ok({ version: 2, tables: [{ table: 't' }], functions: [{ function: 'f' }] }));
  expect(upgradeDocument({ version: 3, sources: [{ name: 'default' }] }, '$')).toEqual(ok({ version: 2 }));
});

test('version 3: other sources keep their form under sources, in their order, the default source lifted wherever it stands', () => {
  const analytics = { name: 'analytics', kind: 'postgres', configuration: { connection_info: { database_url: 'postgres://a/b' } }, tables: [] };
  const archive = { name: 'archive', configuration: { connection_info: { database_url: { from_env: 'ARCHIVE_URL' } } } };
  expect(upgradeDocument({ version: 3, sources: [analytics, { name: 'default', tables: [{ table: 't' }] }, archive] }, '$')).toEqual(
    ok({ version: 2, tables: [{ table: 't' }], sources: [analytics, archive] }),
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
  expect(upgradeDocument({ version: 3, sources: [{ name: 'default', customization: { root_fields: {} } }] }, '$')).toEqual(
    failure('$.sources[0].customization', 'customization is not supported by this server yet', 'not-supported'),
  );
  expect(upgradeDocument({ version: 3, inherited_roles: [{ role_name: 'r' }] }, '$')).toEqual(
    failure('$.inherited_roles', 'inherited_roles is not supported by this server yet', 'not-supported'),
  );
  expect(upgradeDocument({ version: 3, network: { tls_allowlist: [] } }, '$')).toEqual(
    failure('$.network', 'network is not supported by this server yet', 'not-supported'),
  );
});

test("version 3: the engine's defaults that every project holds are nothing to apply; any other value is refused", () => {
  const source = (customization: unknown) => ({ name: 'default', kind: 'postgres', customization, tables: [{ table: 't' }] });
  expect(
    upgradeDocument({ version: 3, sources: [source({ naming_convention: 'hasura-default' })], graphql_schema_introspection: { disabled_for_roles: [] } }, '$'),
  ).toEqual(ok({ version: 2, tables: [{ table: 't' }] }));
  // Another source's default customization goes too; its own form is kept.
  expect(
    upgradeDocument(
      { version: 3, sources: [{ name: 'other', kind: 'postgres', configuration: {}, customization: { naming_convention: 'hasura-default' } }] },
      '$',
    ),
  ).toEqual(ok({ version: 2, sources: [{ name: 'other', kind: 'postgres', configuration: {} }] }));
  const other = { name: 'other', kind: 'postgres', configuration: {}, customization: { naming_convention: 'graphql-default' } };
  expect(upgradeDocument({ version: 3, sources: [other] }, '$')).toEqual(ok({ version: 2, sources: [other] }));
  expect(upgradeDocument({ version: 3, graphql_schema_introspection: { disabled_for_roles: ['guest'] } }, '$')).toEqual(
    failure('$.graphql_schema_introspection', 'graphql_schema_introspection is not supported by this server yet', 'not-supported'),
  );
  expect(upgradeDocument({ version: 3, graphql_schema_introspection: { disabled_for_roles: [], other: 1 } }, '$')).toEqual(
    failure('$.graphql_schema_introspection', 'graphql_schema_introspection is not supported by this server yet', 'not-supported'),
  );
  expect(upgradeDocument({ version: 3, sources: [source({ naming_convention: 'graphql-default' })] }, '$')).toEqual(
    failure('$.sources[0].customization', 'customization is not supported by this server yet', 'not-supported'),
  );
  expect(upgradeDocument({ version: 3, sources: [source({ naming_convention: 'hasura-default', root_fields: {} })] }, '$')).toEqual(
    failure('$.sources[0].customization', 'customization is not supported by this server yet', 'not-supported'),
  );
  // The default of one key is not taken for another's.
  expect(upgradeDocument({ version: 3, network: { disabled_for_roles: [] } }, '$')).toEqual(
    failure('$.network', 'network is not supported by this server yet', 'not-supported'),
  );
});
