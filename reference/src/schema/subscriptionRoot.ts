// The subscription root of a role's schema: the query root's fields shared, and its own streams.
import { GraphQLObjectType, type GraphQLFieldConfigMap } from 'graphql';
import { NO_EXTENSIONS, outputFields } from './types';

/**
 * subscription_root: the fields of query_root, the same field objects rather than a copy (less those
 * answered elsewhere), and the streaming fields, its own.
 */
export class SubscriptionRoot extends GraphQLObjectType {
  private own: ReturnType<GraphQLObjectType['getFields']> | undefined;

  constructor(
    private readonly queryRoot: GraphQLObjectType,
    private readonly external: ReadonlyMap<string, string>,
    private readonly streams: number,
    streamFields: () => GraphQLFieldConfigMap<unknown, unknown>,
  ) {
    super({ name: 'subscription_root', fields: () => outputFields(streamFields()), extensions: NO_EXTENSIONS });
  }

  override getFields() {
    if (this.external.size === 0 && this.streams === 0) return this.queryRoot.getFields();
    return (this.own ??= {
      ...Object.fromEntries(Object.entries(this.queryRoot.getFields()).filter(([name]) => !this.external.has(name))),
      ...super.getFields(),
    });
  }
}
