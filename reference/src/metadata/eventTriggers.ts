// Event triggers (SPEC.md §2.6, §4.3 create_event_trigger; deleting in the engine's form) as
// pure functions over the document, and the database triggers a document calls for.
import { EVENT_RETRY_DEFAULTS, type EventTrigger, type MetadataDocument, type QualifiedName, type TableEntry } from '../../../spec';
import { relationKey, type Introspection } from '../db/introspection';
import { engineError } from '../errors';
import { sourcesOf, sourceView } from './sources';
import { replaceEntry, trackedEntry } from './tables';

export const OPERATIONS = ['insert', 'update', 'delete'] as const;
export type EventOperation = (typeof OPERATIONS)[number];

/** Every event trigger of the document's own tables (one source's part) with its table. */
export function eventTriggersOf(document: MetadataDocument): { table: QualifiedName; trigger: EventTrigger }[] {
  return document.tables.flatMap((t) => (t.event_triggers ?? []).map((trigger) => ({ table: t.table, trigger })));
}

/** Every event trigger of every source's tables, with its table and (another source's) source: their names are one namespace. */
export function everyEventTriggerOf(document: MetadataDocument): { table: QualifiedName; trigger: EventTrigger; source?: string }[] {
  return [
    ...eventTriggersOf(document),
    ...sourcesOf(document).flatMap((s) => eventTriggersOf(sourceView(document, s.name)).map((e) => ({ ...e, source: s.name }))),
  ];
}

export function findEventTrigger(document: MetadataDocument, name: string): { table: QualifiedName; trigger: EventTrigger; source?: string } {
  const found = everyEventTriggerOf(document).find((e) => e.trigger.name === name);
  if (!found) throw engineError('not-exists.event-trigger', '$.args', [JSON.stringify(name)]);
  return found;
}

export interface CreateEventTriggerArgs {
  name: string;
  table: QualifiedName;
  webhook?: string;
  webhook_from_env?: string;
  insert?: { columns: '*' | string[] };
  update?: { columns: '*' | string[] };
  delete?: { columns: '*' | string[] };
  enable_manual?: boolean;
  retry_conf?: EventTrigger['retry_conf'];
  headers?: EventTrigger['headers'];
  replace?: boolean;
}

function withTriggers(entry: TableEntry, triggers: EventTrigger[]): TableEntry {
  const { event_triggers: _old, ...rest } = entry;
  return triggers.length ? { ...rest, event_triggers: triggers } : rest;
}

/** The document without the named trigger (wherever it is). */
function withoutTrigger(document: MetadataDocument, name: string): MetadataDocument {
  return {
    ...document,
    tables: document.tables.map((t) =>
      t.event_triggers?.some((e) => e.name === name)
        ? withTriggers(
            t,
            t.event_triggers.filter((e) => e.name !== name),
          )
        : t,
    ),
  };
}

export function createEventTrigger(document: MetadataDocument, db: Introspection, args: CreateEventTriggerArgs): MetadataDocument {
  // The name and the operations were checked with the arguments (spec/arguments.ts createEventTrigger).
  if ((args.webhook === undefined) === (args.webhook_from_env === undefined)) {
    throw engineError('parse-failed.arguments', '$.args', ['exactly one of "webhook" and "webhook_from_env" is expected']);
  }
  const exists = eventTriggersOf(document).some((e) => e.trigger.name === args.name);
  if (exists && !args.replace) throw engineError('already-exists.event-trigger', '$.args', [JSON.stringify(args.name)]);
  const base = exists ? withoutTrigger(document, args.name) : document;
  const entry = trackedEntry(base, args.table);
  const table = db.tables.get(relationKey(args.table));
  const definition: EventTrigger['definition'] = { enable_manual: args.enable_manual === true };
  for (const op of OPERATIONS) {
    const spec = args[op];
    if (!spec) continue;
    if (Array.isArray(spec.columns)) {
      for (const c of spec.columns)
        if (table && !table.columns.some((x) => x.name === c)) throw engineError('not-exists.column', `$.args.${op}.columns`, [JSON.stringify(c)]);
    }
    definition[op] = { columns: Array.isArray(spec.columns) ? [...spec.columns] : '*' };
  }
  const trigger: EventTrigger = {
    name: args.name,
    definition,
    retry_conf: { ...EVENT_RETRY_DEFAULTS, ...(args.retry_conf ?? {}) },
    ...(args.webhook !== undefined ? { webhook: args.webhook } : { webhook_from_env: args.webhook_from_env! }),
    ...(args.headers?.length ? { headers: args.headers } : {}),
  };
  return replaceEntry(base, withTriggers(entry, [...(entry.event_triggers ?? []), trigger]));
}

export function deleteEventTrigger(document: MetadataDocument, name: string): MetadataDocument {
  findEventTrigger(document, name);
  return withoutTrigger(document, name);
}

/** One database trigger: a table, an event trigger, an operation, and (updates) the columns that count. */
export interface DatabaseTrigger {
  table: QualifiedName;
  trigger: string;
  op: EventOperation;
  /** '*' or a JSON array of column names. */
  columns: string;
}

export const databaseTriggerKey = (d: DatabaseTrigger) => `${relationKey(d.table)}\u0000${d.trigger}\u0000${d.op}`;

/** The database triggers a document calls for. */
export function databaseTriggersOf(document: MetadataDocument): DatabaseTrigger[] {
  return eventTriggersOf(document).flatMap(({ table, trigger }) =>
    OPERATIONS.flatMap((op) => {
      const spec = trigger.definition[op];
      if (!spec) return [];
      return [{ table, trigger: trigger.name, op, columns: op === 'update' && Array.isArray(spec.columns) ? JSON.stringify(spec.columns) : '*' }];
    }),
  );
}

/** What to drop and what to create to go from the triggers of `before` to those of `after`. */
export function triggerChanges(before: MetadataDocument, after: MetadataDocument): { drop: DatabaseTrigger[]; create: DatabaseTrigger[] } {
  const old = new Map(databaseTriggersOf(before).map((d) => [databaseTriggerKey(d), d]));
  const now = new Map(databaseTriggersOf(after).map((d) => [databaseTriggerKey(d), d]));
  return {
    drop: [...old.entries()].filter(([k]) => !now.has(k)).map(([, d]) => d),
    create: [...now.entries()].filter(([k, d]) => old.get(k)?.columns !== d.columns).map(([, d]) => d),
  };
}
