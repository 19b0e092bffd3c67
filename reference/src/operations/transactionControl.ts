// run_sql's text runs inside the request's transaction, so a statement of its own that ends that
// transaction (COMMIT, ROLLBACK, …) would break the all-or-nothing promise of a request. This
// finds such statements before anything runs, reading the text as PostgreSQL's lexer does: quoted
// strings, E'' strings, dollar quotes, quoted identifiers, both kinds of comments, and the
// `BEGIN ATOMIC … END` bodies of SQL functions, whose inner semicolons do not end the statement.
// PostgreSQL itself enforces the same (see the transaction guard in sql/); this gives the clear
// answer before any of the SQL has run.

export interface TransactionControl {
  /** The statement's leading words, upper-cased: `COMMIT`, `START TRANSACTION`. */
  statement: string;
  /** 1-based position of the statement in the text. */
  index: number;
}

/** The leading words of each statement of `text`, upper-cased (at most three per statement). */
export function statementHeads(text: string): string[][] {
  const heads: string[][] = [];
  let words: string[] = [];
  let atomicDepth = 0;
  let isRoutine = false;
  let sawAny = false;
  const endStatement = () => {
    if (sawAny) heads.push(words.slice(0, 3));
    words = [];
    atomicDepth = 0;
    isRoutine = false;
    sawAny = false;
  };
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '-' && next === '-') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && next === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (text[i] === '/' && text[i + 1] === '*') (depth++, (i += 2));
        else if (text[i] === '*' && text[i + 1] === '/') (depth--, (i += 2));
        else i++;
      }
      continue;
    }
    if (c === ';') {
      if (atomicDepth === 0) endStatement();
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    sawAny = true;
    if (c === "'") {
      i = skipQuoted(text, i, "'", false);
      continue;
    }
    if (c === '"') {
      i = skipQuoted(text, i, '"', false);
      continue;
    }
    if (c === '$') {
      const tag = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(text.slice(i, i + 200));
      if (tag) {
        const close = text.indexOf(tag[0], i + tag[0].length);
        i = close < 0 ? n : close + tag[0].length;
        continue;
      }
      i++;
      continue;
    }
    if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$\u0080-\uffff]/.test(text[j]!)) j++;
      const word = text.slice(i, j).toUpperCase();
      // E'…' strings take backslash escapes; U&'…' and B'…', X'…' do not.
      if (word === 'E' && text[j] === "'") {
        i = skipQuoted(text, j, "'", true);
        continue;
      }
      words.push(word);
      if (words.length <= 4 && (word === 'FUNCTION' || word === 'PROCEDURE') && words[0] === 'CREATE') isRoutine = true;
      if (isRoutine && (word === 'BEGIN' || word === 'CASE')) atomicDepth++;
      else if (isRoutine && word === 'END' && atomicDepth > 0) atomicDepth--;
      i = j;
      continue;
    }
    i++;
  }
  endStatement();
  return heads;
}

/** Index just past a quoted token starting at `start`; a doubled quote stays inside. */
function skipQuoted(text: string, start: number, quote: string, backslashEscapes: boolean): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (backslashEscapes && c === '\\') {
      i += 2;
      continue;
    }
    if (c === quote) {
      if (text[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return text.length;
}

/** Whether statement words end or start a transaction (savepoints inside it are fine). */
function endsTransaction(words: string[]): boolean {
  const [first, second, third] = words;
  switch (first) {
    case 'BEGIN':
    case 'COMMIT':
    case 'END':
    case 'ABORT':
      return true;
    case 'START':
      return second === 'TRANSACTION';
    case 'PREPARE':
      return second === 'TRANSACTION';
    case 'ROLLBACK':
      // ROLLBACK [WORK | TRANSACTION] TO [SAVEPOINT] name stays inside the transaction.
      return !(second === 'TO' || ((second === 'WORK' || second === 'TRANSACTION') && third === 'TO'));
    default:
      return false;
  }
}

/** The first statement of `text` that would end the request's transaction, if any. */
export function findTransactionControl(text: string): TransactionControl | undefined {
  const heads = statementHeads(text);
  for (const [index, words] of heads.entries()) {
    if (endsTransaction(words)) return { statement: words.slice(0, words[0] === 'START' || words[0] === 'PREPARE' ? 2 : 1).join(' '), index: index + 1 };
  }
  return undefined;
}
