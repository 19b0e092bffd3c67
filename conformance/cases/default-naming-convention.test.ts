// The server-wide naming convention (ENGINE_GRAPHQL_DEFAULT_NAMING_CONVENTION, decision 048): every
// source whose customization names no convention takes it, the server's own database too; a
// source that names hasura-default keeps the engine's default names.
import { caseWithProfile } from '../harness/cases';
import { expectResponse } from '../harness/client';
import { useTarget } from '../harness/target';

const target = useTarget({ profiles: ['graphql-default-naming'] });
const ok = { message: 'success' };

caseWithProfile(
  'graphql-default-naming',
  ['dec.source.customization', 'dec.metadata.default-source'],
  "with graphql-default the server's default, the server's own tables take it unless the default source's customization names hasura-default",
  async () => {
    const camel = target.profileTarget('graphql-default-naming')!;
    await camel.sql('drop table if exists public.shop_orders; create table public.shop_orders (order_id serial primary key, total_cents int not null)');
    await camel.sql('insert into public.shop_orders (total_cents) values (250), (900)');
    try {
      expectResponse(await camel.metadata({ type: 'pg_track_table', args: { table: 'shop_orders' } }), 200, ok);
      const query =
        '{ shopOrders(orderBy: {totalCents: DESC}, where: {totalCents: {_isNull: false}}) { orderId __typename } shopOrdersAggregate { aggregate { sum { totalCents } } } }';
      expect((await camel.graphql(query)).body).toEqual({
        data: {
          shopOrders: [
            { orderId: 2, __typename: 'ShopOrders' },
            { orderId: 1, __typename: 'ShopOrders' },
          ],
          shopOrdersAggregate: { aggregate: { sum: { totalCents: 1150 } } },
        },
      });
      expect((await camel.graphql('mutation { insertShopOrdersOne(object: {totalCents: 5}) { orderId } }')).body).toEqual({
        data: { insertShopOrdersOne: { orderId: 3 } },
      });
      const snake = { type: 'pg_update_source', args: { name: 'default', customization: { naming_convention: 'hasura-default' } } };
      expectResponse(await camel.metadata(snake), 200, ok);
      expect((await camel.graphql('{ shop_orders_aggregate { aggregate { count } } }')).body).toEqual({
        data: { shop_orders_aggregate: { aggregate: { count: 3 } } },
      });
    } finally {
      await camel.reset();
      await camel.sql('drop table if exists public.shop_orders');
    }
  },
);
