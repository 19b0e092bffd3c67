// The engine's naming conventions as functions of names (decision 046): hasura-default leaves every
// generated name as it is made (snake_case, prefix and suffix concatenated); graphql-default makes
// fields and arguments camelCase, types PascalCase and enum values upper case. A generated name is
// a list of words, each generated (recased) or custom (a name the user gave: kept as written when it
// leads the name).
// Every name a source generates, and every name the compiler reads back, goes through these
// functions (decision 048).

export type NamingConvention = 'hasura-default' | 'graphql-default';

/** A word of a generated name; `custom` when the user wrote it (a custom name, a prefix). */
export interface NameWord {
  text: string;
  custom: boolean;
}

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

const upperFirst = (t: string) => t.slice(0, 1).toUpperCase() + t.slice(1);
const lowerFirst = (t: string) => t.slice(0, 1).toLowerCase() + t.slice(1);
/** A recased name, or the name as it is when recasing would make it no GraphQL name. */
const validOr = (recased: string, name: string) => (GRAPHQL_NAME.test(recased) ? recased : name);

/** The words of a snake_case text; a leading underscore belongs to the first word (`_hello_world` → `_hello`, `world`). */
export function fromSnake(text: string): string[] {
  const parts = text.split('_');
  return parts[0] === '' && parts.length > 1 ? [`_${parts[1]}`, ...parts.slice(2)] : parts;
}

/** Generated words from snake_case texts, in order (`generated('app_db', 'app_users')`: app, db, app, users). */
export const generated = (...texts: string[]): NameWord[] => texts.flatMap((t) => fromSnake(t).map((text) => ({ text, custom: false })));

/** A name the user gave, as one custom word. */
export const custom = (text: string): NameWord[] => [{ text, custom: true }];

/** The words of a table's generated names: its custom name, else its schema (unless public) and name. */
export const tableWords = (table: { schema: string; name: string }, customName?: string): NameWord[] =>
  customName !== undefined ? custom(customName) : table.schema === 'public' ? generated(table.name) : generated(table.schema, table.name);

function joined(words: readonly NameWord[], first: (t: string) => string): string {
  const [lead, ...rest] = words;
  if (!lead) throw new Error('a name has at least one word');
  return (lead.custom ? lead.text : first(lead.text)) + rest.map((w) => upperFirst(w.text)).join('');
}

/** A field or argument name made of `words`: snake_case, or camelCase under graphql-default. */
export const fieldName = (convention: NamingConvention, words: readonly NameWord[]): string =>
  convention === 'hasura-default' ? words.map((w) => w.text).join('_') : joined(words, lowerFirst);

/** A type name made of `words`: snake_case, or PascalCase under graphql-default. */
export const typeName = (convention: NamingConvention, words: readonly NameWord[]): string =>
  convention === 'hasura-default' ? words.map((w) => w.text).join('_') : joined(words, upperFirst);

/** A snake_case field name recased as a whole (`_is_null` → `_isNull`, `stddev_pop` → `stddevPop`). */
export const recaseField = (convention: NamingConvention, name: string): string =>
  convention === 'hasura-default' ? name : validOr(fieldName(convention, generated(name)), name);

/** A snake_case type name recased as a whole (`String_comparison_exp` → `StringComparisonExp`). */
export const recaseType = (convention: NamingConvention, name: string): string =>
  convention === 'hasura-default' ? name : validOr(typeName(convention, generated(name)), name);

/** An enum value (an enum table's value, an order_by direction): upper case under graphql-default. */
export const enumValue = (convention: NamingConvention, value: string): string => (convention === 'hasura-default' ? value : value.toUpperCase());

/**
 * A root field (`kind` field) or a type (`kind` type) under a source's prefix and suffix: concatenated
 * as they are under hasura-default; under graphql-default the prefix is kept as written and what
 * follows it starts upper case (`p_` + `authors` + `_s` → `p_Authors_s`).
 */
export function withPrefixSuffix(convention: NamingConvention, kind: 'field' | 'type', name: string, prefix?: string, suffix?: string): string {
  if (convention === 'hasura-default') return `${prefix ?? ''}${name}${suffix ?? ''}`;
  const words: NameWord[] = [...(prefix ? custom(prefix) : []), { text: name, custom: !prefix }, ...(suffix ? custom(suffix) : [])];
  return kind === 'field'
    ? words[0]!.text +
        words
          .slice(1)
          .map((w) => upperFirst(w.text))
          .join('')
    : joined(words, upperFirst);
}
