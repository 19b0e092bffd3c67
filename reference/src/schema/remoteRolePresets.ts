// The argument presets of a role's remote schema permission (decision dec.remote-schema.presets),
// as a role's schema carries them to execution: made in remote/rolePermission.ts, applied in
// execute/remotePresets.ts.
import type { GraphQLNamedType, GraphQLSchema, ValueNode } from 'graphql';

/** What the engine sends for a preset argument or input field. */
export type Preset =
  | { kind: 'static'; value: ValueNode }
  /** `variable`: the session's key; `header`: how messages name it. */
  | { kind: 'session'; variable: string; header: string; type: GraphQLNamedType };

/** The presets of a role on one remote, by the remote's own type names. */
export interface RolePresets {
  /** `Type.field` → argument → preset. */
  args: ReadonlyMap<string, ReadonlyMap<string, Preset>>;
  /** Input object type → field → preset. */
  inputFields: ReadonlyMap<string, ReadonlyMap<string, Preset>>;
  /** The role's part of the remote in the remote's own names: what the request sent on is read against. */
  schema: GraphQLSchema;
}
