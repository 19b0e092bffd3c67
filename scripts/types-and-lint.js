#!/usr/bin/env node
// The type check and the linter on one TypeScript program: the linter's type-aware rules read the
// types the type check has just worked out, instead of building and checking the project a second
// time (as `tsc` and `eslint` do when each runs alone). Same tsconfig.json, same eslint.config.mjs;
// what each found is printed under its name, and the exit code is 1 when either found anything.
// Both keep what they found in node_modules/.cache/engine, so that a second run looks again only
// at what changed.
const { mkdirSync } = require('node:fs');
const { join } = require('node:path');
const ts = require('typescript');
const { ESLint } = require('eslint');

const root = join(__dirname, '..');
const CACHE = join(root, 'node_modules', '.cache', 'engine');

function program() {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  mkdirSync(CACHE, { recursive: true });
  const options = { ...parsed.options, noEmit: true, incremental: true, tsBuildInfoFile: join(CACHE, 'types.tsbuildinfo') };
  const builder = ts.createIncrementalProgram({ rootNames: parsed.fileNames, options, configFileParsingDiagnostics: parsed.errors });
  const diagnostics = [
    ...builder.getConfigFileParsingDiagnostics(),
    ...builder.getOptionsDiagnostics(),
    ...builder.getGlobalDiagnostics(),
    ...builder.getSyntacticDiagnostics(),
    ...builder.getSemanticDiagnostics(),
  ];
  builder.emit(); // with noEmit: the cache of what was checked, nothing else
  return { program: builder.getProgram(), diagnostics };
}

/**
 * typescript-eslint's parser, given the program already checked (a program cannot sit in the
 * configuration itself: ESLint's cache keys on the configuration's JSON).
 */
function parserOn(checked) {
  const { parser } = require('typescript-eslint');
  return {
    meta: { name: 'typescript-eslint/parser on the checked program', version: parser.meta?.version ?? parser.version },
    parseForESLint: (code, options) => parser.parseForESLint(code, { ...options, projectService: false, project: undefined, programs: [checked] }),
  };
}

async function main() {
  let started = Date.now();
  const { program: checked, diagnostics } = program();
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  process.stdout.write(`${diagnostics.length ? 'FAIL' : 'ok  '} types (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  if (diagnostics.length) process.stdout.write(ts.formatDiagnostics(diagnostics, host));

  started = Date.now();
  const eslint = new ESLint({
    cwd: root,
    cache: true,
    cacheStrategy: 'content',
    cacheLocation: join(CACHE, 'eslint-types/'),
    overrideConfig: { files: ['**/*.ts'], languageOptions: { parser: parserOn(checked) } },
  });
  const results = await eslint.lintFiles(['.']);
  const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
  process.stdout.write(`${problems ? 'FAIL' : 'ok  '} lint (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  if (problems) process.stdout.write(await (await eslint.loadFormatter('stylish')).format(results));
  process.exitCode = diagnostics.length || problems ? 1 : 0;
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exitCode = 1;
});
