// A source's customization (decision dec.source.customization): how the root fields and types of
// its tables and functions are named in the GraphQL schema, in the engine's form.
import { graphqlName } from './names';
import { object, parsed, parseFailure, refine, string, type Schema } from './schema';

export const NAMING_CONVENTIONS = ['hasura-default', 'graphql-default'] as const;
export type NamingConvention = (typeof NAMING_CONVENTIONS)[number];

export interface SourceCustomization {
  root_fields?: { namespace?: string; prefix?: string; suffix?: string };
  type_names?: { prefix?: string; suffix?: string };
  naming_convention?: NamingConvention;
}

/** The engine's message for a naming convention it does not know. */
const namingConvention = refine(string, (v, path) =>
  (NAMING_CONVENTIONS as readonly string[]).includes(v)
    ? parsed(v as NamingConvention)
    : parseFailure(path, 'naming_convention can either be "hasura-default" or "graphql-default"'),
);

const withoutUndefined = <T extends Record<string, unknown>>(v: T): T => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) as T;

/** The customization as the document keeps it: empty parts left out. */
export const sourceCustomization: Schema<SourceCustomization> = refine(
  object(
    {},
    {
      root_fields: object({}, { namespace: graphqlName, prefix: graphqlName, suffix: graphqlName }),
      type_names: object({}, { prefix: graphqlName, suffix: graphqlName }),
      naming_convention: namingConvention,
    },
  ),
  (v, path) => {
    const typeNames = v.type_names && withoutUndefined(v.type_names);
    const rootFields = v.root_fields && withoutUndefined(v.root_fields);
    return parsed(
      withoutUndefined({
        root_fields: rootFields && Object.keys(rootFields).length ? rootFields : undefined,
        type_names: typeNames && Object.keys(typeNames).length ? typeNames : undefined,
        naming_convention: v.naming_convention,
      }) as SourceCustomization,
    );
  },
);

/** Whether a customization changes no name. */
export const namesNothing = (c: SourceCustomization | undefined) => !c?.root_fields && !c?.type_names && c?.naming_convention !== 'graphql-default';
