// The brand the suite speaks (ENGINE_BRAND, `engine-conformance --brand`): the cases are written
// with the Engine's names (X-Engine-Role, x-engine-admin-secret, session variables X-Engine-*, JWT
// claims x-engine-*); under the brand `hasura` the harness sends every such name as the engine this
// API comes from names it (X-Hasura-Role, …), in headers, request bodies, SQL and WebSocket
// payloads, and the cases expect the answers named so, through `branded`.

export const BRANDS = ['engine', 'hasura'] as const;
export type Brand = (typeof BRANDS)[number];

export function brandOf(value: string | undefined): Brand {
  if (value === undefined || value === '') return 'engine';
  if (!(BRANDS as readonly string[]).includes(value)) throw new Error(`ENGINE_BRAND must be ${BRANDS.join(' or ')}, got ${JSON.stringify(value)}`);
  return value as Brand;
}

export const BRAND: Brand = brandOf(process.env.ENGINE_BRAND);

const WORD: Record<Brand, { lower: string; title: string; upper: string }> = {
  engine: { lower: 'engine', title: 'Engine', upper: 'ENGINE' },
  hasura: { lower: 'hasura', title: 'Hasura', upper: 'HASURA' },
};

/** `text` with every `x-engine-` name (any case) in `brand`'s spelling, in the same case. */
export function brandedText(text: string, brand: Brand = BRAND): string {
  if (brand === 'engine') return text;
  const word = WORD[brand];
  return text.replace(
    /(x-)(engine)(-)/gi,
    (_m, x: string, e: string, dash: string) => x + (e === 'ENGINE' ? word.upper : e[0] === 'E' ? word.title : word.lower) + dash,
  );
}

/** The settings of a reference server the harness starts: with the compatibility setting under the brand hasura, each given by its HASURA_GRAPHQL_* name. */
export function serverSettings(settings: Record<string, string>, brand: Brand = BRAND): Record<string, string> {
  if (brand === 'engine') return settings;
  const named = Object.entries(settings).map(([k, v]) => [
    k.startsWith('ENGINE_GRAPHQL_') && k !== 'ENGINE_GRAPHQL_COMPAT_HEADERS' ? `HASURA${k.slice('ENGINE'.length)}` : k,
    v,
  ]);
  return { ...Object.fromEntries(named), ENGINE_GRAPHQL_COMPAT_HEADERS: 'hasura' };
}

/**
 * A value (a string, or JSON: strings and object keys, deeply) with the Engine's names in the
 * suite's brand: what the harness sends, and what a case expects back where the target names a
 * header or session variable. Values other than JSON (jest's asymmetric matchers) stay as they are.
 */
export function branded<T>(value: T, brand: Brand = BRAND): T {
  if (brand === 'engine') return value;
  if (typeof value === 'string') return brandedText(value, brand) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => branded(v, brand)) as T;
  const proto: unknown = value !== null && typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (proto === Object.prototype || proto === null) {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [brandedText(k, brand), branded(v, brand)])) as T;
  }
  return value;
}
