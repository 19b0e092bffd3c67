/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The console in a real headless browser (Debian's chromium driven by puppeteer-core): the page
// loads GraphiQL from this server alone, runs a query with the admin secret typed into its header
// editor, shows the answer, lists the schema's types in its documentation explorer, and receives
// a subscription's rows over the WebSocket. And when the console is off, there is no page.
import { accessSync, constants } from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { createDatabase, dropDatabase } from '../../../conformance/harness/database';
import { CLUSTER_URL_VARIABLE } from '../../../conformance/harness/environment';
import { loadConfig } from '../config';
import { createLogger } from '../log';
import { startServer, type RunningServer } from '../server';

const CHROMIUM = process.env.ENGINE_CHROMIUM ?? '/usr/bin/chromium';
/** Without a browser the cases that drive one are reported as not run, saying how to get one. */
const HAS_CHROMIUM = (() => {
  try {
    accessSync(CHROMIUM, constants.X_OK);
    return true;
  } catch {
    return false;
  }
})();
const browserTest: (name: string, fn: () => Promise<void>, timeout?: number) => void = HAS_CHROMIUM
  ? test
  : (name, fn) => test.skip(`${name} (not run: needs chromium at ${CHROMIUM}: apt-get install chromium, or set ENGINE_CHROMIUM)`, fn);
/**
 * The browser cases past the first load a page each in the same browser: run by npm run test:long
 * (ENGINE_TEST_LONG=1, as CI runs it); npm test reports them as not run and says so.
 */
const longBrowserTest: typeof browserTest =
  process.env.ENGINE_TEST_LONG === '1' ? browserTest : (name, fn) => test.skip(`${name} (long form: npm run test:long)`, fn);
if (!HAS_CHROMIUM) process.stdout.write(`console: browser cases not run: no chromium at ${CHROMIUM} (apt-get install chromium, or set ENGINE_CHROMIUM)\n`);
const SECRET = 'console-s3cret';
const cluster = () => process.env[CLUSTER_URL_VARIABLE]!;
let database: { name: string; url: string };
let server: RunningServer;
let browser: Browser;

const settings = { ENGINE_GRAPHQL_SERVER_PORT: '0', ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1', ENGINE_GRAPHQL_ADMIN_SECRET: SECRET };

beforeAll(async () => {
  database = await createDatabase(cluster());
  server = await startServer(loadConfig({ ...settings, ENGINE_GRAPHQL_ENABLE_CONSOLE: 'true' }), database.url, createLogger('silent'));
  const admin = { 'x-engine-admin-secret': SECRET, 'content-type': 'application/json' };
  await fetch(`${server.url}/v2/query`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ type: 'run_sql', args: { sql: "create table note (id int primary key, body text); insert into note values (1, 'first');" } }),
  });
  await fetch(`${server.url}/v1/metadata`, { method: 'POST', headers: admin, body: JSON.stringify({ type: 'track_table', args: { table: 'note' } }) });
  if (!HAS_CHROMIUM) return;
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await dropDatabase(cluster(), database.name);
});

/** Open the console with `query` in its editor, the admin secret in its header editor, and run it. */
async function run(page: Page, query: string): Promise<void> {
  // The header editor's content is in place before the page's own scripts read it: one load.
  await page.evaluateOnNewDocument((secret) => localStorage.setItem('graphiql:headers', JSON.stringify({ 'x-engine-admin-secret': secret })), SECRET);
  await page.goto(`${server.url}/console?query=${encodeURIComponent(query)}`, { waitUntil: 'networkidle0' });
  await page.waitForSelector('.graphiql-container .graphiql-execute-button');
  await page.click('.graphiql-execute-button');
}

const resultText = (page: Page) => page.$eval('.result-window', (e) => (e as HTMLElement).innerText.replace(/\s+/g, ''));

describe('the console', () => {
  browserTest(
    "loads from this server alone, runs a query with the header editor's secret and shows the answer",
    async () => {
      const page = await browser.newPage();
      const outside: string[] = [];
      const errors: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith(server.url) && !r.url().startsWith('data:') && !r.url().startsWith(server.url.replace('http', 'ws'))) outside.push(r.url());
      });
      page.on('pageerror', (e) => errors.push(String(e)));
      await run(page, '{ note { id body } }');
      await page.waitForFunction(() => document.querySelector('.result-window')?.textContent?.includes('first'), { timeout: 15_000 });
      expect(await resultText(page)).toContain('{"data":{"note":[{"id":1,"body":"first"}]}}');
      expect([outside, errors]).toEqual([[], []]);
      await page.close();
    },
    60_000,
  );

  longBrowserTest(
    'the documentation explorer lists the root types from introspection',
    async () => {
      const page = await browser.newPage();
      await run(page, '{ __typename }');
      await page.click('[aria-label="Show Documentation Explorer"]');
      await page.waitForFunction(() => document.querySelector('.graphiql-doc-explorer')?.textContent?.includes('query_root'), { timeout: 15_000 });
      const docs = await page.$eval('.graphiql-doc-explorer', (e) => e.textContent ?? '');
      expect([docs.includes('query_root'), docs.includes('mutation_root'), docs.includes('subscription_root')]).toEqual([true, true, true]);
      await page.close();
    },
    60_000,
  );

  longBrowserTest(
    'a subscription streams over the WebSocket with the same headers',
    async () => {
      const page = await browser.newPage();
      await run(page, 'subscription { note(order_by: {id: asc}) { id body } }');
      await page.waitForFunction(() => document.querySelector('.result-window')?.textContent?.includes('first'), { timeout: 15_000 });
      await fetch(`${server.url}/v2/query`, {
        method: 'POST',
        headers: { 'x-engine-admin-secret': SECRET, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'run_sql', args: { sql: "insert into note values (2, 'second')" } }),
      });
      await page.waitForFunction(() => document.querySelector('.result-window')?.textContent?.includes('second'), { timeout: 15_000 });
      expect(await resultText(page)).toContain('{"data":{"note":[{"id":1,"body":"first"},{"id":2,"body":"second"}]}}');
      await page.close();
    },
    60_000,
  );

  test('the page names no secret and forbids framing; only its own files are served', async () => {
    const r = await fetch(`${server.url}/console`);
    const html = await r.text();
    expect([
      r.status,
      html.includes(SECRET),
      r.headers.get('x-frame-options'),
      r.headers.get('content-security-policy')?.includes("frame-ancestors 'none'"),
    ]).toEqual([200, false, 'DENY', true]);
    for (const path of ['/console/assets/..%2f..%2fpackage.json', '/console/assets/package.json', '/console/assets/constructor', '/console/assets/__proto__']) {
      expect([path, (await fetch(`${server.url}${path}`)).status]).toEqual([path, 404]);
    }
    expect((await fetch(`${server.url}/console/assets/graphiql.js`)).headers.get('content-type')).toMatch(/^text\/javascript/);
    // The page names its own icon, so that a browser does not ask for /favicon.ico (a 404).
    expect(html).toContain('<link rel="icon" href="/console/assets/favicon.svg" type="image/svg+xml">');
    const icon = await fetch(`${server.url}/console/assets/favicon.svg`);
    expect([icon.status, icon.headers.get('content-type'), (await icon.text()).startsWith('<svg')]).toEqual([200, 'image/svg+xml; charset=utf-8', true]);
  });

  test('off by default when an admin secret is set, on by default without one', () => {
    expect(loadConfig(settings).enableConsole).toBe(false);
    expect(loadConfig({}).enableConsole).toBe(true);
    expect(loadConfig({ ENGINE_GRAPHQL_ENABLE_CONSOLE: 'false' }).enableConsole).toBe(false);
  });

  test('when off, /console is not found', async () => {
    const off = await startServer(loadConfig(settings), database.url, createLogger('silent'));
    try {
      const r = await fetch(`${off.url}/console`);
      expect([r.status, await r.json()]).toEqual([404, { path: '$', error: 'No such resource exists', code: 'not-found' }]);
    } finally {
      await off.close();
    }
  });
});
