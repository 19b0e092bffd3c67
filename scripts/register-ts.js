// A source checkout runs its TypeScript as it is: each .ts file is compiled on load by SWC (the
// transform the tests use) and kept in node_modules/.cache/engine-ts/ under the hash of its text and
// the compiler's options, so a later start compiles only the files that changed (a server started
// from the cache loads in a fraction of the time; see docs/decisions/021-compiled-source-cache.md).
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'engine-ts');

/** `cache`: where compiled files are kept (the checkout's node_modules/.cache/engine-ts/ unless given). */
function register(cache = CACHE) {
  if (require.extensions['.ts']) return;
  const swc = require('@swc/core');
  const options = {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  };
  const version = `${swc.version}\u0000${JSON.stringify(options)}`;
  // Stack traces name the TypeScript lines.
  process.setSourceMapsEnabled(true);
  require.extensions['.ts'] = (module, filename) => {
    const source = readFileSync(filename, 'utf8');
    const hash = createHash('sha256').update(version).update('\u0000').update(filename).update('\u0000').update(source).digest('hex');
    const cached = join(cache, `${hash}.js`);
    let code;
    try {
      code = readFileSync(cached, 'utf8');
    } catch {
      code = swc.transformSync(source, { ...options, filename }).code;
      try {
        mkdirSync(cache, { recursive: true });
        // Written whole, then renamed: a process starting beside this one reads all of it or nothing.
        const partial = `${cached}.${process.pid}.tmp`;
        writeFileSync(partial, code);
        renameSync(partial, cached);
      } catch {
        // A cache that cannot be written (read-only checkout): compiled again next time.
      }
    }
    module._compile(code, filename);
  };
}

module.exports = { register };
