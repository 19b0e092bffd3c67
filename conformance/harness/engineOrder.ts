// The order of the lists in the engine's export (decision dec.export.form), so that a case can
// compare a document it made with what export_metadata answers: tables and functions by schema,
// then name; what a table holds by name, permissions by role; the allow-list by collection, REST
// endpoints by URL, everything else by name.
type Json = Record<string, unknown>;
type Entry = Json & { table?: { schema: string; name: string }; function?: { schema: string; name: string } };

/** A copy sorted by `key` (stable: equal keys keep their order); undefined stays undefined. */
export function sortedOn<T>(items: readonly T[] | undefined, key: (item: T) => string): T[] | undefined {
  return items && [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

// The schema first: no name holds U+0000, so it sorts before every character of a name.
const qualified = (q: { schema: string; name: string }) => `${q.schema}\u0000${q.name}`;
const field = (name: string) => (item: unknown) => String((item as Json)[name]);

const TABLE_LISTS: Record<string, string> = {
  object_relationships: 'name',
  array_relationships: 'name',
  computed_fields: 'name',
  remote_relationships: 'name',
  event_triggers: 'name',
  insert_permissions: 'role',
  select_permissions: 'role',
  update_permissions: 'role',
  delete_permissions: 'role',
};

const TOP_LISTS: Record<string, string> = {
  query_collections: 'name',
  allowlist: 'collection',
  rest_endpoints: 'url',
  cron_triggers: 'name',
  remote_schemas: 'name',
  actions: 'name',
};

function withSorted(object: Json, lists: Record<string, string>): Json {
  const out = { ...object };
  for (const [key, by] of Object.entries(lists)) if (Array.isArray(out[key])) out[key] = sortedOn(out[key] as unknown[], field(by));
  return out;
}

function tablesAndFunctions<T extends Json>(part: T): T {
  const tables = part.tables as Entry[] | undefined;
  const functions = part.functions as Entry[] | undefined;
  return {
    ...part,
    ...(tables ? { tables: sortedOn(tables, (t) => qualified(t.table!))!.map((t) => withSorted(t, TABLE_LISTS)) } : {}),
    ...(functions ? { functions: sortedOn(functions, (f) => qualified(f.function!)) } : {}),
  };
}

/** The document with its lists in the order export_metadata answers them. */
export function inEngineOrder<T extends object>(document: T): T {
  const sorted = tablesAndFunctions(withSorted(document as Json, TOP_LISTS));
  const sources = sorted.sources as Json[] | undefined;
  return (sources ? { ...sorted, sources: sortedOn(sources, field('name'))!.map(tablesAndFunctions) } : sorted) as T;
}
