// `engine-reference metadata export|apply|diff DIR`: the metadata of a running server as a
// directory of YAML files (SPEC.md §2.2), written, applied (atomically, by replace_metadata) or
// compared. Exit codes as engine-conformance's: 0 done (diff: no differences), 1 refused by the server
// or different, 2 could not be done (bad usage, an unreadable directory, an unreachable or refusing server).
import { structuredPatch } from 'diff';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { MetadataDocument } from '../../../spec';
import { parseFlags } from '../flags';
import { DIRECTORY_FILES, directoryFiles, documentFromFiles, DirectoryError, type DirectoryFile } from '../metadata/directory';

export const METADATA_USAGE = `Usage: engine-reference metadata <export|apply|diff> DIR [options]

  export DIR   write the server's metadata to DIR (${DIRECTORY_FILES.length} files)
  apply DIR    replace the server's metadata with DIR's, all or nothing, and say what changed
  diff DIR     show how DIR differs from the server's metadata (exit 1 when it does)

Options:
  --endpoint URL        the server (default: ENGINE_ENDPOINT, or http://127.0.0.1:8080)
  --admin-secret SECRET its admin secret (default: ENGINE_GRAPHQL_ADMIN_SECRET)
  --help                this text

Exit codes: 0 done (diff: no differences), 1 the server refused the metadata, or it differs,
2 could not be done: bad usage, a directory that cannot be read, an unreachable server or refused credentials.`;

interface Output {
  out(line: string): void;
  err(line: string): void;
}

export async function metadataCommand(argv: readonly string[], env: NodeJS.ProcessEnv, io: Output): Promise<number> {
  let parsed;
  try {
    parsed = parseFlags(argv, { endpoint: { type: 'string' }, 'admin-secret': { type: 'string' }, help: { type: 'boolean', short: 'h' } }, true);
  } catch (error) {
    io.err(`engine-reference metadata: ${(error as Error).message}`);
    return 2;
  }
  if (parsed.values.help) {
    io.out(METADATA_USAGE);
    return 0;
  }
  const [command, dir, ...rest] = parsed.positionals;
  if (!command || !['export', 'apply', 'diff'].includes(command) || !dir || rest.length) {
    io.err(`engine-reference metadata: expected export, apply or diff and a directory\n\n${METADATA_USAGE}`);
    return 2;
  }
  const endpoint = (parsed.values.endpoint ?? env.ENGINE_ENDPOINT ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  const secret = parsed.values['admin-secret'] ?? env.ENGINE_GRAPHQL_ADMIN_SECRET;
  const call = async (type: string, args: unknown): Promise<{ status: number; body: unknown }> => {
    const r = await fetch(`${endpoint}/v1/metadata`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(secret ? { 'x-engine-admin-secret': secret } : {}) },
      body: JSON.stringify({ type, args }),
    });
    return { status: r.status, body: await r.json().catch(() => null) };
  };
  try {
    // The directory is read whole before the server is asked anything.
    const wanted = command === 'export' ? undefined : documentFromFiles(readDirectory(dir));
    const current = await call('export_metadata', {});
    if (current.status !== 200) {
      io.err(`the server refused export_metadata (${current.status}): ${JSON.stringify(current.body)}`);
      return 2;
    }
    const document = current.body as MetadataDocument;
    if (command === 'export') {
      mkdirSync(dir, { recursive: true });
      const files = directoryFiles(document);
      for (const name of DIRECTORY_FILES) writeFileSync(join(dir, name), files[name]);
      io.out(`wrote ${DIRECTORY_FILES.length} files to ${dir}: ${summary(document)}`);
      return 0;
    }
    if (!wanted) throw new Error('unreachable: apply and diff read the directory');
    if (command === 'diff') {
      const differences = diffFiles(directoryFiles(document), directoryFiles(wanted as unknown as MetadataDocument));
      if (differences.length === 0) {
        io.out('no differences');
        return 0;
      }
      for (const line of differences) io.out(line);
      return 1;
    }
    const changed = DIRECTORY_FILES.filter((name) => directoryFiles(document)[name] !== directoryFiles(wanted as unknown as MetadataDocument)[name]);
    const applied = await call('replace_metadata', wanted);
    if (applied.status !== 200) {
      io.err(`the server refused the metadata of ${dir}; nothing changed (${applied.status}): ${JSON.stringify(applied.body)}`);
      return 1;
    }
    io.out(changed.length ? `applied ${dir}: changed ${changed.join(', ')}` : `applied ${dir}: nothing changed`);
    return 0;
  } catch (error) {
    if (error instanceof DirectoryError) {
      io.err(`${dir}: ${error.message}`);
      return 2;
    }
    // fetch's own failure (its TypeError may come from another realm than this module's).
    if ((error as Error).name === 'TypeError' && /fetch failed/.test((error as Error).message)) {
      io.err(`cannot reach the server at ${endpoint}: ${String((error as { cause?: unknown }).cause ?? (error as Error).message)}`);
      return 2;
    }
    throw error;
  }
}

function readDirectory(dir: string): Partial<Record<DirectoryFile, string>> {
  if (!existsSync(dir)) throw new DirectoryError('no such directory');
  const files: Partial<Record<DirectoryFile, string>> = {};
  for (const name of DIRECTORY_FILES) {
    const path = join(dir, name);
    if (existsSync(path)) files[name] = readFileSync(path, 'utf8');
  }
  return files;
}

function summary(document: MetadataDocument): string {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  return [
    count(document.tables.length, 'table'),
    count(document.functions?.length ?? 0, 'function'),
    count(document.actions?.length ?? 0, 'action'),
    count(document.remote_schemas?.length ?? 0, 'remote schema'),
    count(document.rest_endpoints?.length ?? 0, 'REST endpoint'),
  ].join(', ');
}

/** A unified diff per file that differs (the `diff` package's hunks, one line of context): `--- server/NAME`, `+++ dir/NAME`, `@@ … @@`, lines. */
export function diffFiles(server: Record<string, string>, local: Record<string, string>): string[] {
  const out: string[] = [];
  for (const name of Object.keys(server)) {
    if (server[name] === local[name]) continue;
    const patch = structuredPatch(`server/${name}`, `dir/${name}`, server[name]!, local[name] ?? '', undefined, undefined, { context: 1 });
    out.push(`--- server/${name}`, `+++ dir/${name}`);
    for (const hunk of patch.hunks) out.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, ...hunk.lines);
  }
  return out;
}
