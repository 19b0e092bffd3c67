// run_sql's text runs inside the request's transaction, so a statement of its own that ends that
// transaction (COMMIT, ROLLBACK, …) would break the all-or-nothing promise of a request: after a
// ROLLBACK, the statements that follow in the same text run and commit outside it. The text is read
// by PostgreSQL's own parser (libpg-query, the parser of the server version the engine ships), so
// comments, strings, dollar quotes, keywords used as names and `BEGIN ATOMIC` bodies are read
// exactly as the server reads them; a statement that begins or ends a transaction is refused before
// anything runs. PostgreSQL itself refuses a COMMIT that got through anyway (the transaction guard
// in sql/), and run_sql's session reads strings the way this parser does (standard_conforming_strings).
import { loadModule, parseSync, scanSync, type SqlError } from 'libpg-query';

export interface TransactionControl {
  /** The statement's leading words, upper-cased: `COMMIT`, `START TRANSACTION`. */
  statement: string;
  /** 1-based position of the statement in the text. */
  index: number;
}

/** PostgreSQL's own refusal of text it cannot parse, with the position it names (1-based, as PostgreSQL counts). */
export interface SyntaxProblem {
  message: string;
  position: number;
}

/**
 * `onlyRows`: every statement is a query or a row change (or a savepoint), nothing that could change
 * what the metadata names (decision dec.run_sql.consistency).
 */
export type TransactionControlCheck = { ok: true; control?: TransactionControl; onlyRows: boolean } | { ok: false; problem: SyntaxProblem };

/** Statements that read or change rows only. */
const ROWS_ONLY = new Set(['SelectStmt', 'InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt', 'TransactionStmt']);

/** Statements that stay inside the transaction: savepoints. */
const INSIDE = new Set(['TRANS_STMT_SAVEPOINT', 'TRANS_STMT_RELEASE', 'TRANS_STMT_ROLLBACK_TO']);

let loading: Promise<void> | undefined;

/** Loads the parser (WebAssembly) once; later calls are free. */
export function loadParser(): Promise<void> {
  loading ??= loadModule();
  return loading;
}

/** The first statement of `text` that would begin or end the request's transaction, if any. */
export async function checkTransactionControl(text: string): Promise<TransactionControlCheck> {
  await loadParser();
  if (text.trim() === '') return { ok: true, onlyRows: true };
  let stmts;
  try {
    ({ stmts } = parseSync(text));
  } catch (error) {
    const details = (error as SqlError).sqlDetails;
    if (!details) throw error;
    return { ok: false, problem: { message: details.message, position: details.cursorPosition + 1 } };
  }
  const onlyRows = (stmts ?? []).every((raw) => Object.keys(raw.stmt ?? {}).every((node) => ROWS_ONLY.has(node)));
  for (const [i, raw] of (stmts ?? []).entries()) {
    const kind = (raw.stmt as { TransactionStmt?: { kind?: string } } | undefined)?.TransactionStmt?.kind;
    if (kind === undefined || INSIDE.has(kind)) continue;
    return { ok: true, control: { statement: leadingWords(text.slice(raw.stmt_location ?? 0)), index: i + 1 }, onlyRows };
  }
  return { ok: true, onlyRows };
}

/** `START TRANSACTION`, `PREPARE TRANSACTION`, or the one word that starts the statement. */
function leadingWords(statement: string): string {
  const words = scanSync(statement)
    .tokens.filter((t) => t.tokenName !== 'C_COMMENT' && t.tokenName !== 'SQL_COMMENT')
    .slice(0, 2)
    .map((t) => t.text.toUpperCase());
  return words[0] === 'START' || words[0] === 'PREPARE' ? words.join(' ') : (words[0] ?? '');
}
