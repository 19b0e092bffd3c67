// `engine-reference metadata export|apply|diff DIR`: the metadata of a running server as a
// directory of YAML files in either layout of the engine's CLI (version.yaml says which), written,
// applied (atomically, by replace_metadata) or compared. Exit codes as engine-conformance's: 0 done
// (diff: no differences), 1 refused by the server or different, 2 could not be done (bad usage, a
// directory that cannot be read whole, an unreachable or refusing server).
import { structuredPatch } from 'diff';
import { existsSync } from 'node:fs';
import type { MetadataDocument } from '../../../spec';
import { parseFlags } from '../flags';
import {
  DirectoryError,
  exportLayout,
  filesOfExport,
  filesOfRead,
  readDirectory,
  staleFiles,
  summaryOf,
  type DirectoryRead,
  type Layout,
} from '../metadata/directory';
import { adminApi, couldNotBeDone } from './adminApi';
import { readTree, writeTree } from './metadataTree';

export const METADATA_USAGE = `Usage: engine-reference metadata <export|apply|diff> DIR [options]

  export DIR   write the server's metadata to DIR
  apply DIR    replace the server's metadata with DIR's, all or nothing, and say which files changed
  diff DIR     show how DIR differs from the server's metadata (exit 1 when it does)

DIR is in one of the two layouts of the engine's CLI, named by its version.yaml: version 2 (tables.yaml,
functions.yaml, … at the top) or version 3 (databases/databases.yaml, a file per table and function
under databases/<source>/, reached by "!include"). apply and diff read every file of DIR, or none: a
directory without version.yaml, with a file its layout does not have, a file that is not valid YAML or
does not hold what it must, or an !include that cannot be followed is an error that names the file.

Options:
  --layout 2|3          export only: the layout to write. Without it: 3 when the server has sources
                        besides its own database, else the layout DIR already has, else 2
  --endpoint URL        the server (default: ENGINE_ENDPOINT, or http://127.0.0.1:8080)
  --admin-secret SECRET its admin secret (default: ENGINE_GRAPHQL_ADMIN_SECRET)
  --help                this text

Exit codes: 0 done: everything DIR holds was applied (diff: no differences), 1 the server refused the
metadata and nothing changed, or it differs, 2 could not be done: bad usage, a directory that cannot be
read whole, an unreachable server or refused credentials.`;

interface Output {
  out(line: string): void;
  err(line: string): void;
}

export async function metadataCommand(argv: readonly string[], env: NodeJS.ProcessEnv, io: Output): Promise<number> {
  let parsed;
  try {
    parsed = parseFlags(
      argv,
      { layout: { type: 'string' }, endpoint: { type: 'string' }, 'admin-secret': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      true,
    );
  } catch (error) {
    io.err(`engine-reference metadata: ${(error as Error).message}`);
    return 2;
  }
  if (parsed.values.help) {
    io.out(METADATA_USAGE);
    return 0;
  }
  const [command, dir, ...rest] = parsed.positionals;
  const usage = (problem: string) => {
    io.err(`engine-reference metadata: ${problem}\n\n${METADATA_USAGE}`);
    return 2;
  };
  if (!command || !['export', 'apply', 'diff'].includes(command) || !dir || rest.length) return usage('expected export, apply or diff and a directory');
  const { layout } = parsed.values;
  if (layout !== undefined && command !== 'export') return usage(`--layout is for export: ${command} reads the layout DIR's version.yaml names`);
  if (layout !== undefined && layout !== '2' && layout !== '3') return usage(`--layout ${layout}: the layouts are 2 and 3`);
  const api = adminApi(parsed.values, env);
  const call = (type: string, args: unknown) => api.post('/v1/metadata', { type, args });
  try {
    // The directory is read whole before the server is asked anything.
    const files = command === 'export' ? (existsSync(dir) ? readTree(dir) : {}) : readTree(dir);
    const read = command === 'export' ? undefined : readDirectory(files);
    const current = await call('export_metadata', {});
    if (current.status !== 200) {
      io.err(`the server refused export_metadata (${current.status}): ${JSON.stringify(current.body)}`);
      return 2;
    }
    const exported = current.body as MetadataDocument;
    if (!read) return exportTo(dir, exported, layout === undefined ? undefined : (Number(layout) as Layout), files, io);
    const server = filesOfExport(exported, read.layout, files);
    const local = filesOfRead(read, files);
    if (command === 'diff') {
      const differences = diffFiles(server, local, read.layout === 3);
      if (differences.length === 0) {
        io.out('no differences');
        return 0;
      }
      for (const line of differences) io.out(line);
      return 1;
    }
    return await apply(dir, read, changedFiles(server, local, read.layout === 3), call, io);
  } catch (error) {
    return couldNotBeDone(error, DirectoryError, dir, api.endpoint, (line) => io.err(line));
  }
}

function exportTo(dir: string, exported: MetadataDocument, asked: Layout | undefined, existing: Record<string, string>, io: Output): number {
  const layout = exportLayout(asked, exported, existing);
  const files = filesOfExport(exported, layout, existing);
  const stale = staleFiles(files, existing);
  writeTree(dir, files, stale);
  const removed = stale.length ? ` (removed ${stale.join(', ')})` : '';
  io.out(`wrote ${Object.keys(files).length} files of layout ${layout} to ${dir}${removed}: ${summaryOf(exported)}`);
  return 0;
}

async function apply(
  dir: string,
  read: DirectoryRead,
  changed: string[],
  call: (type: string, args: unknown) => Promise<{ status: number; body: unknown }>,
  io: Output,
): Promise<number> {
  const applied = await call('replace_metadata', read.document);
  if (applied.status !== 200) {
    io.err(`the server refused the metadata of ${dir}; nothing changed (${applied.status}): ${JSON.stringify(applied.body)}`);
    return 1;
  }
  io.out(changed.length ? `applied ${dir}: changed ${changed.join(', ')}` : `applied ${dir}: nothing changed`);
  return 0;
}

/** The files that differ, or are on one side only: in the order they are written (by path, for the folders of version 3). */
function changedFiles(server: Record<string, string>, local: Record<string, string>, byPath: boolean): string[] {
  const names = [...new Set([...Object.keys(server), ...Object.keys(local)])].filter((name) => server[name] !== local[name]);
  return byPath ? names.sort() : names;
}

/** A unified diff per file that differs (the `diff` package's hunks, one line of context): `--- server/NAME`, `+++ dir/NAME`, `@@ … @@`, lines. */
function diffFiles(server: Record<string, string>, local: Record<string, string>, byPath: boolean): string[] {
  const out: string[] = [];
  for (const name of changedFiles(server, local, byPath)) {
    const patch = structuredPatch(`server/${name}`, `dir/${name}`, server[name] ?? '', local[name] ?? '', undefined, undefined, { context: 1 });
    out.push(`--- server/${name}`, `+++ dir/${name}`);
    for (const hunk of patch.hunks) out.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, ...hunk.lines);
  }
  return out;
}
