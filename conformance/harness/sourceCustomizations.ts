// Generators of a source's customization for the metadata-replacement fuzzer (decision
// dec.source.customization): root field prefixes, suffixes and a namespace of the source's own,
// type name prefixes and suffixes, and the naming convention written out or not; plus
// customizations the arguments refuse.
import fc from 'fast-check';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A customization of the source `name` in export form (empty parts left out), or none. */
export const sourceCustomization = (name: string): fc.Arbitrary<Record<string, Json> | undefined> =>
  fc
    .record(
      {
        root_fields: fc.record({ namespace: fc.constant(`ns_${name}`), prefix: fc.constant('p_'), suffix: fc.constant('_s') }, { requiredKeys: [] }),
        type_names: fc.record({ prefix: fc.constant('T_'), suffix: fc.constant('_t') }, { requiredKeys: [] }),
        naming_convention: fc.constant('hasura-default'),
      },
      { requiredKeys: [] },
    )
    .map((c) => {
      const customization: Record<string, Json> = {};
      if (c.root_fields && Object.keys(c.root_fields).length) customization.root_fields = c.root_fields as Record<string, Json>;
      if (c.type_names && Object.keys(c.type_names).length) customization.type_names = c.type_names as Record<string, Json>;
      if (c.naming_convention) customization.naming_convention = c.naming_convention;
      return Object.keys(customization).length ? customization : undefined;
    });

/**
 * A customization of the default source (decision dec.metadata.default-source), or none: type name
 * prefixes and suffixes only, so that the server's own tables keep the root fields the cases read.
 */
export const defaultSourceCustomization: fc.Arbitrary<Record<string, Json> | undefined> = fc.option(
  fc.record({ prefix: fc.constant('D_'), suffix: fc.constant('_d') }, { requiredKeys: ['prefix'] }).map((typeNames) => ({ type_names: typeNames })),
  { nil: undefined },
);

/** The type of a table of the server's own under the default source's customization (by its custom name, or schema_name). */
export function ownTypeName(
  customization: Record<string, Json> | undefined,
  entry: { table: { schema: string; name: string }; configuration?: unknown },
): string {
  const typeNames = (customization?.type_names ?? {}) as { prefix?: string; suffix?: string };
  const name = (entry.configuration as { custom_name?: string } | undefined)?.custom_name ?? `${entry.table.schema}_${entry.table.name}`;
  return `${typeNames.prefix ?? ''}${name}${typeNames.suffix ?? ''}`;
}

/** A source's customization whose root field prefix is no GraphQL name, and the engine's answer to it at `path`. */
export const BAD_CUSTOMIZATION = {
  customization: { root_fields: { prefix: '2nd-' } },
  answer: (path: string) => ({ path: `${path}.customization.root_fields.prefix`, error: '"2nd-" is not a GraphQL name', code: 'parse-failed' }),
};

/**
 * The graphql-default naming convention, on an added source and on the default source: not served
 * by the reference (decision dec.source.customization), so refused at its place, nothing changed,
 * never kept and ignored.
 */
export function namingConventionRefusals<D extends { sources?: Record<string, Json>[]; default_source?: { customization?: Record<string, Json> } }>(): {
  kind: string;
  apply: (d: D) => D;
  answer: (d: D) => { path: string; error: string; code: string };
}[] {
  const sources = (d: D) => d.sources ?? [];
  return [
    {
      kind: 'a source with the graphql-default naming convention',
      apply: (d) => ({
        ...d,
        sources: [
          ...sources(d),
          {
            name: 'src_camel',
            kind: 'postgres',
            configuration: { connection_info: { database_url: 'postgres://x/y' } },
            tables: [],
            customization: { naming_convention: 'graphql-default' },
          },
        ],
      }),
      answer: (d) => ({
        path: `$.args.metadata.sources[${sources(d).length}].customization.naming_convention`,
        error: 'graphql-default is not supported by this server yet',
        code: 'not-supported',
      }),
    },
    {
      kind: 'the default source with the graphql-default naming convention',
      apply: (d) => ({ ...d, default_source: { customization: { ...d.default_source?.customization, naming_convention: 'graphql-default' } } }),
      answer: () => ({
        path: '$.args.metadata.default_source.customization',
        error: 'customization is not supported by this server yet',
        code: 'not-supported',
      }),
    },
  ];
}

/**
 * A query of the aggregate root field of each of a source's tables (by the names the table alone
 * gives its select field and its type), under the source's customization, and the answer it has
 * when every table is empty: the aggregate's __typename under the type prefix and suffix.
 */
export function aggregateReads(
  customization: Record<string, Json> | undefined,
  tables: readonly { select: string; type: string }[],
  alias: string,
): { text: string; answer: Record<string, Json> } {
  const rootFields = (customization?.root_fields ?? {}) as { namespace?: string; prefix?: string; suffix?: string };
  const typeNames = (customization?.type_names ?? {}) as { prefix?: string; suffix?: string };
  const name = (select: string) => `${rootFields.prefix ?? ''}${select}_aggregate${rootFields.suffix ?? ''}`;
  // A source that tracks nothing has no root fields, nor a namespace field.
  if (tables.length === 0) return { text: '', answer: {} };
  const fields = tables.map((t, i) => `${alias}${i}: ${name(t.select)} { __typename aggregate { count } }`).join(' ');
  const answers = Object.fromEntries(
    tables.map((t, i) => [`${alias}${i}`, { __typename: `${typeNames.prefix ?? ''}${t.type}_aggregate${typeNames.suffix ?? ''}`, aggregate: { count: 0 } }]),
  );
  if (rootFields.namespace === undefined) return { text: fields, answer: answers };
  return { text: `${alias}: ${rootFields.namespace} { ${fields} }`, answer: { [alias]: answers } };
}
