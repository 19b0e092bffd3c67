// `engine-reference metadata export|apply|diff DIR`: the metadata of a running server as a
// directory of YAML files (SPEC.md §2.2), written, applied (atomically, by replace_metadata) or
// compared. Exit codes as engine-conformance's: 0 done (diff: no differences), 1 refused by the server
// or different, 2 could not be done (bad usage, an unreadable directory, an unreachable or refusing server).
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
    const wanted = documentFromFiles(readDirectory(dir));
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

/** A line diff per file that differs: `--- server/NAME`, `+++ dir/NAME`, then `-`/`+` lines with one line of context. */
export function diffFiles(server: Record<string, string>, local: Record<string, string>): string[] {
  const out: string[] = [];
  for (const name of Object.keys(server)) {
    if (server[name] === local[name]) continue;
    out.push(`--- server/${name}`, `+++ dir/${name}`, ...lineDiff(server[name]!.split('\n'), (local[name] ?? '').split('\n')));
  }
  return out;
}

function lineDiff(a: string[], b: string[]): string[] {
  // Longest common subsequence; metadata files are small enough for the quadratic table.
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const lines: { mark: ' ' | '-' | '+'; text: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) (lines.push({ mark: ' ', text: a[i++]! }), j++);
    else if (j < m && (i === n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) lines.push({ mark: '+', text: b[j++]! });
    else lines.push({ mark: '-', text: a[i++]! });
  }
  // Changed lines with one line of context around them.
  const changed = (k: number) => lines[k] !== undefined && lines[k]!.mark !== ' ';
  return lines.filter((_l, k) => changed(k) || changed(k - 1) || changed(k + 1)).map((l) => `${l.mark}${l.text}`);
}
