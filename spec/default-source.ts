// How a project describes the server's own database, the source `default` (decision
// dec.metadata.default-source): its configuration and customization are kept and exported as
// given; the database the server serves stays the one it was started with.
import { formatMessage } from './errors';
import { sourceConfiguration, type SourceConfiguration } from './sources';
import { literal, nullable, object, parseFailure, parsed, refine, string, type ParseResult, type Schema } from './schema';

export interface DefaultSource {
  configuration?: SourceConfiguration;
  customization?: DefaultSourceCustomization;
}

export interface DefaultSourceCustomization {
  root_fields?: { namespace?: string | null; prefix?: string | null; suffix?: string | null };
  type_names?: { prefix?: string | null; suffix?: string | null };
  naming_convention?: 'hasura-default' | 'graphql-default';
}

const given = (v: string | null | undefined) => typeof v === 'string' && v !== '';

/**
 * Whether a customization changes nothing: no namespace, prefix or suffix, and the engine's default
 * naming convention. Anything else is not served yet and is refused rather than kept unserved.
 */
export function customizationChangesNothing(v: DefaultSourceCustomization): boolean {
  const { root_fields: roots, type_names: types, naming_convention: convention } = v;
  return (
    !given(roots?.namespace) &&
    !given(roots?.prefix) &&
    !given(roots?.suffix) &&
    !given(types?.prefix) &&
    !given(types?.suffix) &&
    convention !== 'graphql-default'
  );
}

const affix = { prefix: nullable(string), suffix: nullable(string) };

export const defaultSourceCustomization: Schema<DefaultSourceCustomization> = refine(
  object(
    {},
    {
      root_fields: object({}, { namespace: nullable(string), ...affix }),
      type_names: object({}, affix),
      naming_convention: literal('hasura-default', 'graphql-default'),
    },
  ),
  (v, path): ParseResult<DefaultSourceCustomization> =>
    customizationChangesNothing(v)
      ? parsed(v as DefaultSourceCustomization)
      : parseFailure(path, formatMessage('err.not-supported.not-implemented', 'customization'), 'not-supported'),
);

export const defaultSource: Schema<DefaultSource> = object({}, { configuration: sourceConfiguration, customization: defaultSourceCustomization });
