// How a project describes the server's own database, the source `default` (decision
// dec.metadata.default-source): its configuration and customization are kept and exported as
// given, the customization applied; the database the server serves stays the one it was started with.
import { sourceConfiguration, type SourceConfiguration } from './sources';
import { graphqlName } from './names';
import { literal, nullable, object, parsed, refine, string, type Schema } from './schema';
import type { SourceCustomization } from './source-customization';

export interface DefaultSource {
  configuration?: SourceConfiguration;
  customization?: DefaultSourceCustomization;
}

export interface DefaultSourceCustomization {
  root_fields?: { namespace?: string | null; prefix?: string | null; suffix?: string | null };
  type_names?: { prefix?: string | null; suffix?: string | null };
  naming_convention?: 'hasura-default' | 'graphql-default';
}

const given = (v: string | null | undefined): v is string => typeof v === 'string' && v !== '';

/** A name of the customization: absent, null or empty as the CLI writes them, else a GraphQL name. */
const name: Schema<string | null> = refine(nullable(string), (v, path) => (v === null || v === '' ? parsed(v) : graphqlName.parse(v, path)));

const affix = { prefix: name, suffix: name };

/**
 * The default source's customization as the CLI writes it (null and empty parts said nothing),
 * applied as another source's is (decision dec.source.customization), its naming convention too
 * (decision 048).
 */
export const defaultSourceCustomization: Schema<DefaultSourceCustomization> = object(
  {},
  {
    root_fields: object({}, { namespace: name, ...affix }),
    type_names: object({}, affix),
    naming_convention: literal('hasura-default', 'graphql-default'),
  },
) as Schema<DefaultSourceCustomization>;

/** What the default source's customization names, in the form of another source's (none when it names nothing). */
export function appliedCustomization(v: DefaultSourceCustomization | undefined): SourceCustomization | undefined {
  if (!v) return undefined;
  const part = <K extends string>(o: Partial<Record<K, string | null>> | undefined, keys: readonly K[]) => {
    const kept = Object.fromEntries(keys.flatMap((k) => (given(o?.[k]) ? [[k, o[k]]] : [])));
    return Object.keys(kept).length ? kept : undefined;
  };
  const rootFields = part(v.root_fields, ['namespace', 'prefix', 'suffix'] as const);
  const typeNames = part(v.type_names, ['prefix', 'suffix'] as const);
  const naming = v.naming_convention;
  if (!rootFields && !typeNames && !naming) return undefined;
  return {
    ...(rootFields ? { root_fields: rootFields } : {}),
    ...(typeNames ? { type_names: typeNames } : {}),
    ...(naming ? { naming_convention: naming } : {}),
  };
}

export const defaultSource: Schema<DefaultSource> = object({}, { configuration: sourceConfiguration, customization: defaultSourceCustomization });
