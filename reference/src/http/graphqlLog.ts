// What a request's log line says of a GraphQL operation: `graphql:<name>` (operationName, or the
// name of the document's only operation) or `graphql:<kind>`, found with graphql-js's lexer; the
// errors of an answer that has some; and the whole detail of the fast path's line as JSON text.
import { Lexer, Source, TokenKind } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { GraphQLRequest } from '../execute/graphql';

const OPERATION_KINDS = new Set(['query', 'mutation', 'subscription']);
/** Labels of recent documents: a document sent again is not lexed again. */
const labels = new LRUCache<string, string>({ max: 1000 });

export function graphqlOperationLabel(request: GraphQLRequest): string {
  if (typeof request.operationName === 'string' && request.operationName !== '') return `graphql:${request.operationName}`;
  if (typeof request.query !== 'string') return 'graphql:query';
  return labels.get(request.query) ?? remember(request.query);
}

function remember(query: string): string {
  const label = `graphql:${soleOperation(query) ?? 'query'}`;
  labels.set(query, label);
  return label;
}

/** The name (or else the kind) of the document's operation when it has exactly one; undefined otherwise. */
function soleOperation(query: string): string | undefined {
  const lexer = new Lexer(new Source(query));
  let depth = 0;
  // Within a definition at the top (its variables and directives are at depth 0 too).
  let inDefinition = false;
  let operations = 0;
  let found: string | undefined;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (depth === 0 && !inDefinition) {
        // A definition starts: a selection set alone (an anonymous query), an operation, or a fragment.
        inDefinition = true;
        if (token.kind === TokenKind.BRACE_L) {
          operations += 1;
          found = 'query';
        } else if (OPERATION_KINDS.has(token.value)) {
          operations += 1;
          const next = lexer.lookahead();
          found = next.kind === TokenKind.NAME ? next.value : token.value;
        }
      }
      if (OPENING.has(token.kind)) depth += 1;
      else if (CLOSING.has(token.kind) && --depth === 0 && token.kind === TokenKind.BRACE_R) inDefinition = false;
    }
  } catch {
    return undefined; // not GraphQL: the answer says why
  }
  return operations === 1 ? found : undefined;
}

const OPENING = new Set<string>([TokenKind.BRACE_L, TokenKind.PAREN_L, TokenKind.BRACKET_L]);
const CLOSING = new Set<string>([TokenKind.BRACE_R, TokenKind.PAREN_R, TokenKind.BRACKET_R]);

/** The errors of a GraphQL answer, as a log line carries them (message and code); undefined when it has none. */
export function graphqlErrorsOf(body: string): { message: unknown; code: unknown }[] | undefined {
  // Most answers have none: the text is parsed only when it has an errors member.
  if (!body.includes('"errors":[')) return undefined;
  try {
    const errors = (JSON.parse(body) as { errors?: { message?: unknown; extensions?: { code?: unknown } }[] }).errors;
    return Array.isArray(errors) ? errors.map((e) => ({ message: e.message, code: e.extensions?.code })) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The detail of the `http-log` line of a request the fast path answered, as JSON text: the members
 * of the app's line (app.ts), in its order, written straight from their values instead of an
 * object made for each request and then serialised.
 */
export function graphqlRequestDetail(
  requestId: string,
  url: string,
  status: number,
  durationMs: number,
  role: string | undefined,
  operation: string,
  errors: { message: unknown; code: unknown }[] | undefined,
): string {
  const roleMember = role === undefined ? '' : `,"role":${JSON.stringify(role)}`;
  const errorsMember = errors === undefined ? '' : `,"errors":${JSON.stringify(errors)}`;
  return `{"request_id":${JSON.stringify(requestId)},"method":"POST","url":${JSON.stringify(url)},"status":${status},"duration_ms":${durationMs}${roleMember},"operation":${JSON.stringify(operation)}${errorsMember}}`;
}
