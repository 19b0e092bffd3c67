// The console at /console: GraphiQL (the graphiql package's own browser build, with React and
// graphql-ws from their packages) over this server's /v1/graphql, with a header editor for the
// admin secret or a role, the documentation explorer from introspection, and subscriptions over
// the WebSocket transport. Only the files named here are served; the page holds no secret.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Request, Response, Router } from 'express';
import express from 'express';
import type { EngineConfig } from '../config';

/** A file of an installed package (its `exports` do not list the browser builds). */
function packageFile(name: string, file: string): string {
  for (let dir = dirname(require.resolve(name)); dirname(dir) !== dir; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name) return join(dir, file);
  }
  throw new Error(`package ${name} not found`);
}

const ASSETS: Record<string, { package: string; file: string; type: string }> = {
  'react.js': { package: 'react', file: 'umd/react.production.min.js', type: 'text/javascript' },
  'react-dom.js': { package: 'react-dom', file: 'umd/react-dom.production.min.js', type: 'text/javascript' },
  'graphql-ws.js': { package: 'graphql-ws', file: 'umd/graphql-ws.min.js', type: 'text/javascript' },
  'graphiql.js': { package: 'graphiql', file: 'graphiql.min.js', type: 'text/javascript' },
  'graphiql.css': { package: 'graphiql', file: 'graphiql.min.css', type: 'text/css' },
};

/**
 * Starts GraphiQL. Every request carries the header editor's headers: over HTTP as headers, and
 * for subscriptions as the socket's connection_init headers (a new socket when they change).
 */
const BOOT = `(function () {
  var mount = document.getElementById('console');
  var url = location.origin + '/v1/graphql';
  var latest = {};
  var socket = null;
  var socketHeaders = null;
  function client() {
    var key = JSON.stringify(latest);
    if (socket === null || key !== socketHeaders) {
      if (socket !== null) socket.dispose();
      socket = graphqlWs.createClient({ url: url.replace(/^http/, 'ws'), lazy: true, connectionParams: { headers: latest } });
      socketHeaders = key;
    }
    return socket;
  }
  var wsClient = {
    subscribe: function (payload, sink) { return client().subscribe(payload, sink); },
    on: function () { return function () {}; },
    dispose: function () { if (socket !== null) socket.dispose(); },
    terminate: function () { if (socket !== null) socket.terminate(); },
  };
  var inner = GraphiQL.createFetcher({ url: url, wsClient: wsClient });
  var fetcher = function (params, options) {
    latest = (options && options.headers) || {};
    return inner(params, options);
  };
  var params = new URLSearchParams(location.search);
  ReactDOM.createRoot(mount).render(React.createElement(GraphiQL, {
    fetcher: fetcher,
    defaultHeaders: mount.dataset.headers,
    shouldPersistHeaders: true,
    defaultEditorToolsVisibility: 'headers',
    defaultQuery: params.get('query') || undefined,
    query: params.get('query') || undefined,
  }));
})();
`;

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function page(config: EngineConfig): string {
  // What the header editor starts with: the admin secret's header to fill in, or the admin role.
  const headers = config.adminSecret !== undefined ? { 'x-engine-admin-secret': '' } : { 'x-engine-role': 'admin' };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Engine console</title>
<link rel="stylesheet" href="/console/assets/graphiql.css">
<link rel="stylesheet" href="/console/assets/console.css">
<link rel="icon" href="/console/assets/favicon.svg" type="image/svg+xml">
</head>
<body>
<div id="console" data-headers="${escapeAttribute(JSON.stringify(headers, null, 2))}"></div>
<script src="/console/assets/react.js"></script>
<script src="/console/assets/react-dom.js"></script>
<script src="/console/assets/graphql-ws.js"></script>
<script src="/console/assets/graphiql.js"></script>
<script src="/console/assets/console.js"></script>
</body>
</html>
`;
}

const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1f6feb"/>' +
  '<path d="M4 4h8v2H6v1h5v2H6v1h6v2H4z" fill="#fff"/></svg>\n';

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-cache',
};

export function consoleRouter(config: EngineConfig): Router {
  const router = express.Router();
  const cache = new Map<string, Buffer>();
  const html = page(config);
  router.get(['/console', '/console/'], (_req: Request, res: Response) => {
    res.set(SECURITY_HEADERS).type('text/html').send(html);
  });
  router.get('/console/assets/:name', (req: Request, res: Response, next) => {
    const name = String(req.params.name);
    res.set(SECURITY_HEADERS);
    if (name === 'console.js') return res.type('text/javascript').send(BOOT);
    if (name === 'console.css') return res.type('text/css').send('html, body, #console { height: 100%; margin: 0; }\n');
    // Its own icon: without one a browser asks for /favicon.ico and gets a 404.
    if (name === 'favicon.svg') return res.type('image/svg+xml').send(FAVICON);
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) return next();
    let body = cache.get(name);
    if (!body) {
      body = readFileSync(packageFile(asset.package, asset.file));
      cache.set(name, body);
    }
    res.type(asset.type).send(body);
  });
  return router;
}
