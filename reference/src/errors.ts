// The errors the server answers with. Each one names an entry of the catalogue in spec/errors.ts,
// which holds its code, status and message pattern; nobody writes a message inline.
import { ERRORS_BY_ID, formatMessage } from '../../spec';
import type { ParseProblem } from '../../spec/schema';

export interface ErrorBody {
  path: string;
  error: string;
  code?: string;
  internal?: unknown;
}

export class EngineError extends Error {
  constructor(
    readonly id: string,
    readonly status: number,
    readonly code: string | null,
    message: string,
    readonly path: string,
    readonly internal?: unknown,
  ) {
    super(message);
  }

  /** The same error, reported at a path below `prefix` (bulk reports `$.args[2].args...`). */
  under(prefix: string): EngineError {
    const path = this.path === '$' ? prefix : prefix + this.path.slice(1);
    return new EngineError(this.id, this.status, this.code, this.message, path, this.internal);
  }

  /** The same error, reported at another path. */
  at(path: string): EngineError {
    return new EngineError(this.id, this.status, this.code, this.message, path, this.internal);
  }

  /** The error envelope; `internal` (statements, PostgreSQL's error) only for admin. */
  toBody(showInternal = true): ErrorBody {
    return {
      path: this.path,
      error: this.message,
      ...(this.code !== null ? { code: this.code } : {}),
      ...(this.internal !== undefined && showInternal ? { internal: this.internal } : {}),
    };
  }
}

/** An error of the catalogue, its placeholders filled in order. */
export function engineError(id: string, path: string, params: string[] = [], internal?: unknown): EngineError {
  const spec = ERRORS_BY_ID.get(`err.${id}`);
  if (!spec) throw new Error(`unknown error id err.${id}`);
  return new EngineError(spec.id, spec.status, spec.code, formatMessage(spec.id, ...params), path, internal);
}

export function parseError(problem: ParseProblem): EngineError {
  if (problem.code === 'not-supported') {
    const e = engineError('not-supported.not-implemented', problem.path);
    return new EngineError(e.id, e.status, e.code, problem.message, problem.path);
  }
  const e = engineError('parse-failed.arguments', problem.path);
  // A problem the schema names a code for (a duplicate, an empty host) answers with that code.
  return new EngineError(e.id, e.status, problem.code ?? e.code, problem.message, problem.path);
}
