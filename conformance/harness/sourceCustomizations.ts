// Generators of a source's customization for the metadata-replacement fuzzer (decision
// dec.source.customization): root field prefixes, suffixes and a namespace of the source's own,
// type name prefixes and suffixes, and either naming convention written out or not (decision 048);
// plus customizations the arguments refuse.
import fc from 'fast-check';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A customization of the source `name` in export form (empty parts left out), or none. */
export const sourceCustomization = (name: string): fc.Arbitrary<Record<string, Json> | undefined> =>
  fc
    .record(
      {
        root_fields: fc.record({ namespace: fc.constant(`ns_${name}`), prefix: fc.constant('p_'), suffix: fc.constant('_s') }, { requiredKeys: [] }),
        type_names: fc.record({ prefix: fc.constant('T_'), suffix: fc.constant('_t') }, { requiredKeys: [] }),
        naming_convention: fc.constantFrom('hasura-default', 'graphql-default'),
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
 * A query of the aggregate root field of each of a source's tables (by the names the table alone
 * gives its select field and its type, its custom name), under the source's customization, and the answer it has
 * when every table is empty: the aggregate's __typename under the type prefix and suffix.
 */
export function aggregateReads(
  customization: Record<string, Json> | undefined,
  tables: readonly { select: string; type: string }[],
  alias: string,
): { text: string; answer: Record<string, Json> } {
  const rootFields = (customization?.root_fields ?? {}) as { namespace?: string; prefix?: string; suffix?: string };
  const typeNames = (customization?.type_names ?? {}) as { prefix?: string; suffix?: string };
  // Under graphql-default (decision 048) the custom name leads as written and `Aggregate` follows it; what
  // follows a prefix, and a suffix, start upper case.
  const camel = customization?.naming_convention === 'graphql-default';
  const upper = (text: string) => (camel ? text.slice(0, 1).toUpperCase() + text.slice(1) : text);
  const aggregate = (name: string) => (camel ? `${name}Aggregate` : `${name}_aggregate`);
  const affixed = (name: string, affix: { prefix?: string; suffix?: string }) =>
    affix.prefix === undefined ? `${name}${upper(affix.suffix ?? '')}` : `${affix.prefix}${upper(name)}${upper(affix.suffix ?? '')}`;
  const name = (select: string) => affixed(aggregate(select), rootFields);
  // A source that tracks nothing has no root fields, nor a namespace field.
  if (tables.length === 0) return { text: '', answer: {} };
  const fields = tables.map((t, i) => `${alias}${i}: ${name(t.select)} { __typename aggregate { count } }`).join(' ');
  const answers = Object.fromEntries(tables.map((t, i) => [`${alias}${i}`, { __typename: affixed(aggregate(t.type), typeNames), aggregate: { count: 0 } }]));
  if (rootFields.namespace === undefined) return { text: fields, answer: answers };
  return { text: `${alias}: ${rootFields.namespace} { ${fields} }`, answer: { [alias]: answers } };
}
