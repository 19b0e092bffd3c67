// How a connection goes back to its pool after a request (giveBack): the pool's side of it, which a
// client can only see when a connection in a bad state would be handed to the next request.
import type { PoolClient } from 'pg';
import { giveBack } from './sessionReset';

function fakeClient(fails = false) {
  const sent: string[] = [];
  const released: unknown[][] = [];
  const client = {
    query: async ({ text }: { text: string }) => {
      sent.push(text);
      if (fails) throw new Error('the connection is gone');
      return { rows: [] };
    },
    release: (...args: unknown[]) => void released.push(args),
  };
  return { client: client as unknown as PoolClient, sent, released };
}

test('a connection whose transaction did not end is closed, with nothing sent on it, whatever ran', async () => {
  for (const ranUserSql of [true, false]) {
    const { client, sent, released } = fakeClient();
    await giveBack(client, ranUserSql, false);
    expect({ sent, released }).toEqual({ sent: [], released: [[true]] });
  }
});

test('a connection that ran no user SQL goes back as it is, with nothing sent on it', async () => {
  const { client, sent, released } = fakeClient();
  await giveBack(client, false, true);
  expect({ sent, released }).toEqual({ sent: [], released: [[]] });
});

test('a connection that ran user SQL is reset, then goes back to be used again', async () => {
  const { client, sent, released } = fakeClient();
  await giveBack(client, true, true);
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatch(/^close all; set session authorization default; reset all; unlisten \*;/);
  expect(released).toEqual([[]]);
});

test('a connection whose reset fails is closed', async () => {
  const { client, sent, released } = fakeClient(true);
  await giveBack(client, true, true);
  expect({ count: sent.length, released }).toEqual({ count: 1, released: [[true]] });
});
