// The request envelope of /v1/query, /v1/metadata and /v2/query (SPEC.md §4.2, §9):
// {type, version?, args}, parsed into a typed operation with its arguments checked.
import { OPERATIONS_BY_TYPE, schema, type Endpoint } from '../../../spec';
import { engineError, parseError, type EngineError } from '../errors';
import { accessModeProblem } from './accessMode';
import { nearestName } from './nearestName';

export type { ParsedOperation } from './parsedOperation';
import type { ParsedOperation } from './parsedOperation';

export type EnvelopeResult = { ok: true; operation: ParsedOperation } | { ok: false; error: EngineError };

const failed = (error: EngineError): EnvelopeResult => ({ ok: false, error });

/**
 * Where a problem with the arguments of the envelope at `path` is reported: below `args` on
 * /v1/metadata, and on the query endpoints below the envelope itself, as the engine reports it
 * there (decision dec.envelope.argument-paths). Runtime errors keep `.args` everywhere.
 */
const argumentsPath = (endpoint: Endpoint, path: string) => (endpoint === '/v1/metadata' ? `${path}.args` : path);

export function parseEnvelope(body: unknown, endpoint: Endpoint, path = '$', readAt = path): EnvelopeResult {
  if (!schema.isPlainObject(body)) {
    return failed(parseError({ path: readAt, message: `expected Object, but encountered ${schema.jsonTypeName(body)}` }));
  }
  const topLevel = path === '$';
  // Decision dec.envelope.extra-keys: other keys beside these are ignored, as the engine ignores them.
  let resourceVersion: number | undefined;
  if (topLevel && body.resource_version !== undefined) {
    const r = schema.integer.parse(body.resource_version, '$.resource_version');
    if (!r.ok) return failed(parseError(r.problem));
    resourceVersion = r.value;
  }
  if (!('type' in body)) return failed(parseError({ path: readAt, message: 'key "type" not found' }));
  const typeResult = schema.string.parse(body.type, `${readAt}.type`);
  if (!typeResult.ok) return failed(parseError(typeResult.problem));
  const type = typeResult.value;
  const spec = OPERATIONS_BY_TYPE.get(type);
  if (!spec || !spec.endpoints.includes(endpoint)) return failed(unknownOperation(type, endpoint, `${readAt}.type`));
  if (!('args' in body)) return failed(parseError({ path: readAt, message: 'key "args" not found' }));
  let version: number;
  if (body.version !== undefined) {
    const v = schema.integer.parse(body.version, `${readAt}.version`);
    if (!v.ok) return failed(parseError(v.problem));
    if (!spec.versions.some((x) => x.version === v.value)) {
      return failed(
        engineError('parse-failed.unsupported-operation-version', `${readAt}.version`, [String(v.value), type, spec.versions.map((x) => x.version).join(', ')]),
      );
    }
    version = v.value;
  } else {
    version = spec.inferVersion ? spec.inferVersion(body.args) : spec.versions[0]!.version;
  }
  const argsSchema = spec.versions.find((x) => x.version === version)!.args;
  const parsed = argsSchema.parse(body.args, argumentsPath(endpoint, readAt));
  if (!parsed.ok) return failed(parseError(parsed.problem));
  const source = schema.isPlainObject(body.args) && typeof body.args.source === 'string' ? body.args.source : undefined;
  const operation: ParsedOperation = {
    type: spec.aliasOf ?? type,
    version,
    args: parsed.value,
    path,
    ...(source !== undefined ? { source } : {}),
    ...(resourceVersion !== undefined ? { resourceVersion } : {}),
  };
  if (type === 'bulk') {
    const children: ParsedOperation[] = [];
    for (const [i, child] of (parsed.value as unknown[]).entries()) {
      const r = parseEnvelope(child, endpoint, `${path}.args[${i}]`, `${argumentsPath(endpoint, readAt)}[${i}]`);
      if (!r.ok) return r;
      children.push(r.operation);
    }
    operation.children = children;
    if (topLevel) {
      const problem = accessModeProblem(operation);
      if (problem) return failed(problem);
    }
  }
  return { ok: true, operation };
}

/** One error for every unknown type, with the near name or the endpoints that take it. */
function unknownOperation(type: string, endpoint: Endpoint, path: string): EngineError {
  const elsewhere = OPERATIONS_BY_TYPE.get(type);
  if (elsewhere) return engineError('parse-failed.operation-elsewhere', path, [type, elsewhere.endpoints.join(', ')]);
  const here = [...OPERATIONS_BY_TYPE.values()].filter((o) => o.endpoints.includes(endpoint)).map((o) => o.type);
  const near = nearestName(type, here);
  return near ? engineError('parse-failed.unknown-operation-near', path, [type, near]) : engineError('parse-failed.unknown-operation', path, [type]);
}

/** How many operations a request runs: a bulk's members, nested bulks' members counted. */
export function operationCount(operation: ParsedOperation): number {
  return operation.children ? operation.children.reduce((n, child) => n + operationCount(child), 0) : 1;
}
