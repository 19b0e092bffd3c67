// How deep the brackets of a GraphQL text nest, and how deep a JSON value nests, measured before
// anything recurses over them: by the request limits (execute/operationLimits.ts), by a role's remote
// schema SDL, and on a remote's answer.
import { Lexer, Source, TokenKind } from 'graphql';

/**
 * The deepest nesting of `{`, `[` and `(` in a GraphQL document, read with graphql-js's own lexer
 * (strings, block strings with their escapes, and comments are single tokens): measured before
 * parsing, since the parser recurses once per level. Text the lexer refuses is measured up to
 * there, which is as far as the parser gets before it refuses it too.
 */
export function documentNesting(text: string): number {
  const lexer = new Lexer(new Source(text));
  let depth = 0;
  let deepest = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (token.kind === TokenKind.BRACE_L || token.kind === TokenKind.BRACKET_L || token.kind === TokenKind.PAREN_L) {
        depth++;
        if (depth > deepest) deepest = depth;
      } else if (token.kind === TokenKind.BRACE_R || token.kind === TokenKind.BRACKET_R || token.kind === TokenKind.PAREN_R) {
        depth--;
      }
    }
  } catch {
    // A syntax error: the parser stops at the same token.
  }
  return deepest;
}

/** Whether `value` nests deeper than `limit` arrays and objects (iterative: any depth is safe). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
