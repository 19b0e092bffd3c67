// How deep the brackets of a GraphQL text nest, measured before anything recurses over it: by the
// request limits (execute/operationLimits.ts) and by a role's remote schema SDL.
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
