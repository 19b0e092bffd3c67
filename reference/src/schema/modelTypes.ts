// The shapes of the GraphQL layer's table models (built in model.ts, narrowed per role in
// roles.ts): types only, so that both can use them without importing each other.
import type { BoolExp, RemoteFieldPath, RootFieldKey, TableEntry } from '../../../spec';
import type { DbColumn, DbFunction, DbTable } from '../db/introspection';
import type { ResolvedRelationship } from '../metadata/relationships';
import type { NamingConvention } from '../metadata/namingCase';

export interface ColumnModel {
  column: DbColumn;
  field: string;
  scalar: string;
  /** The GraphQL enum of the enum table this column references, if any. */
  enumType?: string;
}

export interface RelationshipModel extends ResolvedRelationship {
  targetKey: string;
  /**
   * Whether the field may be null (decision dec.graphql.object-relationship-nullability): an array
   * relationship never is; an object relationship is non-null only over a foreign key of this
   * table whose columns are all NOT NULL, and, for a role, whose target it reads without a filter.
   */
  nullable: boolean;
}

/** A computed field (§2.3): a scalar per row, or rows of another table (`targetKey`). */
export interface ComputedFieldModel extends Callee {
  /** The GraphQL field: the computed field's name. */
  field: string;
  kind: 'scalar' | 'table';
  targetKey?: string;
  /** A scalar field's value type, in the shape of a column (its GraphQL type, comparisons, casts). */
  returns: ColumnModel;
  comment?: string;
}

/** A remote relationship the table can serve (its lhs columns exist; for a role, it may read them). */
export interface RemoteRelationshipModel {
  name: string;
  remoteSchema: string;
  /** The columns whose values the remote field's arguments read, by column name. */
  lhs: string[];
  remoteField: RemoteFieldPath;
}

/** A remote relationship to a table of a source (dec.remote-relationship.to-source) whose both sides fit. */
export interface SourceRelationshipModel {
  name: string;
  kind: 'object' | 'array';
  /** The target's key among the models of all sources. */
  targetKey: string;
  /** The target's source; undefined: the server's own database. */
  source?: string;
  /** [this table's column, the target's column] pairs. */
  mapping: [string, string][];
}

export interface EnumValue {
  value: string;
  comment: string | null;
}

export interface TableModel {
  key: string;
  /** The source the table is in, when it is not the server's own database (decision dec.source.forms). */
  source?: string;
  /** The field of query_root (and the other roots) its root fields are under (decision dec.source.customization). */
  namespace?: string;
  /** The prefix and suffix of every type name generated for it (decision dec.source.customization). */
  typeNames?: { prefix?: string; suffix?: string };
  /** Its source's naming convention (decision 046); absent: hasura-default. */
  naming?: NamingConvention;
  entry: TableEntry;
  db: DbTable;
  name: string;
  columns: ColumnModel[];
  byField: ReadonlyMap<string, ColumnModel>;
  byColumn: ReadonlyMap<string, ColumnModel>;
  primaryKey: string[] | undefined;
  /** Constraints an upsert may name. */
  constraints: { name: string; columns: string[] }[];
  relationships: RelationshipModel[];
  /** Relationships whose target the role may insert into, when it may insert here: fields of the insert input (decision dec.graphql.nested-inserts). */
  insertRelationships: RelationshipModel[];
  /** Computed fields that can be served (for a role: those its select permission lists). */
  computedFields: ComputedFieldModel[];
  /** Remote relationships whose table side fits (dec.remote-relationship.forms). */
  remoteRelationships: RemoteRelationshipModel[];
  /** Remote relationships to tables of sources, resolved once every source's models are known. */
  sourceRelationships: SourceRelationshipModel[];
  insertable: boolean;
  updatable: boolean;
  deletable: boolean;
  enumValues?: EnumValue[];
  rootFields: Record<RootFieldKey, string>;
  /** What the role whose models these are may do (everything, for admin). */
  access: TableAccess;
  /** The permissions to enforce; absent for admin. */
  permissions?: TablePermissions;
}

export type Models = ReadonlyMap<string, TableModel>;

export interface TableAccess {
  select: boolean;
  aggregate: boolean;
  insert: boolean;
  update: boolean;
  delete: boolean;
  /** Columns the role may set: insert and update inputs (presets excluded). */
  insertColumns: ColumnModel[];
  updateColumns: ColumnModel[];
}

/** The permissions the compiler enforces; absent for admin, who is unrestricted. */
export interface TablePermissions {
  select?: {
    filter: BoolExp;
    limit?: number;
    /**
     * An inherited role's columns (and scalar computed fields, by field) that some of its parents'
     * grants do not list: read only where this filter holds, null elsewhere (decision dec.inherited-roles).
     */
    columnVisibility?: ReadonlyMap<string, BoolExp>;
    computedFieldVisibility?: ReadonlyMap<string, BoolExp>;
  };
  insert?: { check: BoolExp; set: Record<string, unknown> };
  update?: { filter: BoolExp; check?: BoolExp; set: Record<string, unknown> };
  delete?: { filter: BoolExp };
}

export interface FunctionArgumentModel {
  /** The SQL name (null for an unnamed argument) and the GraphQL field name. */
  name: string | null;
  field: string;
  /** The argument's type, in the shape values are cast with. */
  column: DbColumn;
  hasDefault: boolean;
  /** The session argument: filled from the session, not a GraphQL argument. */
  session: boolean;
  /** The row argument of a computed field: the row it is computed for. */
  row?: boolean;
}

/** What a call needs: the function, its arguments, and a name for messages. */
export interface Callee {
  db: DbFunction;
  field: string;
  arguments: FunctionArgumentModel[];
}
