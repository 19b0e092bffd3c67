// Command-line flags of both binaries: node:util's parseArgs, with its errors turned into one
// short line a user can act on.
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A bad flag or argument: the binary prints the message and its usage and exits with 2. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/** Parse `argv` strictly: unknown flags, missing values and stray arguments are UsageErrors. */
export function parseFlags<O extends Options>(argv: readonly string[], options: O, allowPositionals = false) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError(usageMessage(error as Error & { code?: string }));
  }
}

function usageMessage(error: Error & { code?: string }): string {
  const flag = /'(-[-\w]*)/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown flag ${flag ?? error.message}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return flag ? `${flag} needs a value` : error.message;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${/'([^']*)'/.exec(error.message)?.[1] ?? ''}`.trim();
    default:
      return error.message;
  }
}
