// A request envelope parsed into an operation (operations/envelope.ts makes them).

export interface ParsedOperation {
  type: string;
  version: number;
  args: unknown;
  /** Where the operation sits in the request: `$`, or `$.args[2]` inside a bulk. */
  path: string;
  /** The operations of a bulk, parsed the same way. */
  children?: ParsedOperation[];
  /** The `source` its arguments name, when they name one (decision dec.source.forms). */
  source?: string;
  /** Run only on this resource version of the metadata (decision dec.envelope.resource-version). */
  resourceVersion?: number;
}
