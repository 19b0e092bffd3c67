// What the schemas of one metadata version share. A table's GraphQL types depend only on the
// role's view of that table (columns, keys, relationships, what it may do) and on the views of the
// tables its relationships reach. Two roles whose views agree on all of that can use the same type
// objects, and two roles whose root fields agree too can use the same GraphQLSchema. Each view gets
// a signature; a table's class is the signature of its strongly connected component of the
// relationship graph together with the classes of the components it reaches, computed bottom-up
// (Tarjan's algorithm yields the components in that order).
//
// A view holds everything of a table that its types are made from (what the metadata says and what
// the database says), so a class means the same types in every version of the metadata: a new
// version's share takes the types of the classes it still has from the share of the version before
// (decision 022), and builds only those of the tables a change touched.
import { createHash } from 'node:crypto';
import type { GraphQLScalarType, GraphQLSchema } from 'graphql';
import type { ColumnModel, Models, TableModel } from './model';

const digest = (text: string) => createHash('sha1').update(text).digest('base64');

interface NamedEntry {
  type: unknown;
  /** Everything the type is made from; undefined: never taken by another version. */
  content: string | undefined;
}

export class TypeShare {
  /** Named types that belong to no table (scalars' comparison types, enum tables' enums), by name, with what they are made from. */
  private readonly byName = new Map<string, NamedEntry>();
  /** Named types of versions before, the newest of each name: types of classes this version took may refer to them. */
  private readonly inherited = new Map<string, NamedEntry>();
  /** A table's types, by the table's class and then by name. */
  private readonly byClass = new Map<string, Map<string, unknown>>();
  readonly scalars = new Map<string, GraphQLScalarType>();
  /** What all roles' views of a table have alike, by the table's key (this version's). */
  private readonly common = new Map<string, string>();
  /** Whole schemas by the signature of their root fields. */
  readonly schemas = new Map<string, GraphQLSchema>();

  /** Classes whose types this version took from the version before. */
  private readonly takenClasses = new Set<string>();
  /** Tables (of every role's models classified) whose class was taken, and those whose class is new. */
  private taken = 0;
  private made = 0;

  /** `previous`: the share of the metadata version before, whose types this one may take. */
  constructor(private previous?: TypeShare) {
    if (previous) for (const [name, scalar] of previous.scalars) this.scalars.set(name, scalar);
  }

  /**
   * Takes nothing more from the version before. Its named types stay known (types of the classes
   * taken from it refer to them, and a version after must make its own types refer to the same).
   */
  forgetPrevious(): void {
    const previous = this.previous;
    if (previous === undefined) return;
    // The newest entry of each name (one this version made too is found first in byName; one made
    // without content is never taken): as many entries as there are names.
    for (const [name, entry] of [...previous.inherited, ...previous.byName]) this.inherited.set(name, entry);
    this.previous = undefined;
  }

  /**
   * The type of this name that belongs to no table. `content` says everything it is made from:
   * with it, the version before's type of that name and content is taken rather than made again.
   */
  named<T>(name: string, make: () => T, content?: string): T {
    let found = this.byName.get(name);
    if (!found) {
      // One of a version before serves only when made of the same.
      const before = content === undefined ? undefined : (this.previous?.known(name) ?? this.inherited.get(name));
      found = before && before.content === content ? before : { type: make(), content };
      this.byName.set(name, found);
    }
    return found.type as T;
  }

  private known(name: string): NamedEntry | undefined {
    return this.byName.get(name) ?? this.inherited.get(name);
  }

  /** A schema of root fields with this key: this version's, else (when `carried`) the version before's. */
  schema(rootKey: string, carried: boolean, make: () => GraphQLSchema): GraphQLSchema {
    let schema = this.schemas.get(rootKey) ?? (carried ? this.previous?.schemas.get(rootKey) : undefined);
    if (!schema) schema = make();
    this.schemas.set(rootKey, schema);
    return schema;
  }

  /**
   * The class of every table of a role's models. `typeName` gives the GraphQL type a column has in
   * this role's schema (an enum table's enum, with its values, only where the role can see that table).
   */
  classify(models: Models, typeName: (c: ColumnModel) => string, remoteTypes = ''): Map<string, string> {
    const own = new Map<string, string>();
    for (const t of models.values()) {
      let common = this.common.get(t.key);
      if (common === undefined) this.common.set(t.key, (common = commonView(t)));
      // A remote relationship's field has a type of the remote schemas: `remoteTypes` tells their versions apart.
      const remote = t.remoteRelationships.length ? JSON.stringify([t.remoteRelationships, remoteTypes]) : '';
      own.set(t.key, digest(viewOf(t, common, typeName) + remote));
    }
    const classes = classesOf(models, own);
    // This version has these classes: their types are its own to give to the version after, also
    // when none of them is made or even read now (a whole schema taken from the version before).
    for (const tableClass of new Set(classes.values())) this.typesOfClass(tableClass);
    for (const tableClass of classes.values()) {
      if (this.takenClasses.has(tableClass)) this.taken++;
      else this.made++;
    }
    return classes;
  }

  typesOfClass(tableClass: string): Map<string, unknown> {
    let types = this.byClass.get(tableClass);
    if (!types) {
      const before = this.previous?.byClass.get(tableClass);
      if (before) this.takenClasses.add(tableClass);
      this.byClass.set(tableClass, (types = before ?? new Map()));
    }
    return types;
  }

  /**
   * When most of this version's tables have the types of the version before: the schemas made so far
   * (the version before's, then this one's), against which a new schema is validated by the types
   * none of them has (schemaValidation.ts). Otherwise undefined: a new schema is validated whole.
   */
  schemasBefore(): (() => GraphQLSchema[]) | undefined {
    if (this.taken <= this.made) return undefined;
    return () => [...(this.previous?.schemas.values() ?? []), ...this.schemas.values()];
  }

  /** The key of a schema's roots: the classes of its tables, in order. */
  rootKey(models: Models, classes: ReadonlyMap<string, string>, functions: readonly string[] = []): string {
    return digest(JSON.stringify([[...models.keys()].map((k) => classes.get(k)), functions]));
  }
}

/**
 * What every role's view of a table has alike, as a digest: what the database says of it whole and
 * the metadata's names, configured comments and enum values.
 */
function commonView(t: TableModel): string {
  // A table's view is made of what the database says of it and of its metadata entry, whose objects
  // stay the same from version to version while neither changes: the digest is kept with them.
  let byEntry = commonViews.get(t.db);
  if (!byEntry) commonViews.set(t.db, (byEntry = new WeakMap()));
  const kept = byEntry.get(t.entry);
  if (kept && kept.enumValues === t.enumValues) return kept.view;
  const view = digest(JSON.stringify([t.name, t.db, t.entry.configuration ?? null, t.entry.is_enum ?? false, t.enumValues ?? null, t.rootFields]));
  byEntry.set(t.entry, { enumValues: t.enumValues, view });
  return view;
}

/** commonView's digests by the database's description of a table, then by its metadata entry. */
const commonViews = new WeakMap<object, WeakMap<object, { enumValues: TableModel['enumValues']; view: string }>>();

/** Everything of a table the schema builder reads, as text: what all roles' views have alike, and the role's own. */
function viewOf(t: TableModel, common: string, typeName: (c: ColumnModel) => string): string {
  const columns = (cs: ColumnModel[]) => cs.map((c) => c.field);
  return JSON.stringify([
    common,
    // A source's customization changes these without changing the entry commonView is kept by.
    t.rootFields,
    t.namespace ?? null,
    t.typeNames ?? null,
    ...(t.naming ? [t.naming] : []),
    t.columns.map((c) => [c.field, typeName(c)]),
    t.primaryKey ?? null,
    t.constraints.map((c) => c.name),
    t.relationships.map((r) => [r.name, r.kind, r.targetKey, r.nullable]),
    t.insertRelationships.map((r) => [r.name, r.kind, r.targetKey]),
    t.sourceRelationships.map((r) => [r.name, r.kind, r.targetKey, r.mapping]),
    t.computedFields.map((c) => [
      c.field,
      c.kind,
      c.targetKey ?? null,
      c.returns.scalar,
      c.returns.column,
      c.comment ?? null,
      c.db.schema,
      c.db.name,
      c.arguments.map((a) => [a.field, a.column, a.hasDefault, a.session, a.row === true]),
    ]),
    [t.access.select, t.access.aggregate, t.access.insert, t.access.update, t.access.delete, t.permissions === undefined],
    columns(t.access.insertColumns),
    columns(t.access.updateColumns),
  ]);
}

/** Classes from own signatures: strongly connected components, successors first. */
function classesOf(models: Models, own: ReadonlyMap<string, string>): Map<string, string> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const componentOf = new Map<string, number>();
  const componentClass: string[] = [];
  let counter = 0;
  const successors = (key: string) => {
    const t = models.get(key)!;
    return [
      ...t.relationships.map((r) => r.targetKey),
      ...t.insertRelationships.map((r) => r.targetKey),
      ...t.sourceRelationships.map((r) => r.targetKey),
      ...t.computedFields.flatMap((c) => (c.targetKey ? [c.targetKey] : [])),
    ].filter((k) => models.has(k));
  };

  // Iterative Tarjan: a frame is a node and the position in its successor list.
  for (const root of models.keys()) {
    if (index.has(root)) continue;
    const frames: { key: string; next: string[]; i: number }[] = [];
    const visit = (key: string) => {
      index.set(key, counter);
      low.set(key, counter);
      counter++;
      stack.push(key);
      onStack.add(key);
      frames.push({ key, next: successors(key), i: 0 });
    };
    visit(root);
    while (frames.length) {
      const frame = frames[frames.length - 1]!;
      if (frame.i < frame.next.length) {
        const w = frame.next[frame.i++]!;
        if (!index.has(w)) visit(w);
        else if (onStack.has(w)) low.set(frame.key, Math.min(low.get(frame.key)!, index.get(w)!));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.key, Math.min(low.get(parent.key)!, low.get(frame.key)!));
      if (low.get(frame.key) !== index.get(frame.key)) continue;
      // frame.key roots a component: pop it; every component it reaches has its class already.
      const members: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        members.push(w);
      } while (w !== frame.key);
      const id = componentClass.length;
      for (const m of members) componentOf.set(m, id);
      const reached = new Set<string>();
      for (const m of members) for (const s of successors(m)) if (componentOf.get(s) !== id) reached.add(componentClass[componentOf.get(s)!]!);
      members.sort();
      componentClass.push(digest(JSON.stringify([members.map((m) => [m, own.get(m)]), [...reached].sort()])));
    }
  }
  return new Map([...componentOf].map(([key, id]) => [key, componentClass[id]!]));
}
