// The reference server's layers, written once, top to bottom: a module may import its own layer
// and the layers below, never one above; and no module depends on itself through others.
// `npm run check` runs it (scripts/static-checks.js).
const src = '^reference/src/';
const LAYERS = [
  ['entry', `${src}(main|server)\\.ts$|${src}cli/`],
  ['http', `${src}http/`],
  ['engine', `${src}engine/`],
  ['operations', `${src}operations/`],
  ['workers', `${src}(events|actions|rest)/`],
  ['execute', `${src}execute/`],
  ['services', `${src}(remote|auth|catalog)/`],
  ['sql', `${src}sql/`],
  ['schema', `${src}schema/`],
  ['metadata', `${src}metadata/`],
  ['foundation', `${src}db/|${src}(errors|config|configValues|flagHelp|log|flags|packageRoot|sessionNames)\\.ts$`],
];

const upward = LAYERS.flatMap(([name, path], i) =>
  LAYERS.slice(0, i).map(([above, abovePath]) => ({
    name: `${name}-not-up-to-${above}`,
    severity: 'error',
    comment: `${name} sits below ${above}: move the shared piece down instead (docs/ARCHITECTURE.md)`,
    from: { path },
    to: { path: abovePath },
  })),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'Modules depend on each other one way only.', from: {}, to: { circular: true } },
    ...upward,
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: a cycle of types is a cycle of ideas.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
  },
};
