// Structured logs with pino: one JSON object a line, {level, timestamp, type, detail}, on stdout
// (errors on stderr). Lines to stdout are gathered over a turn of the event loop and written
// together, in one write: a busy server pays one system call per turn instead of one per line.
// They are written before the process exits, however it exits short of a kill -9; errors are
// written at once, after what stdout holds.
import pino from 'pino';
import type { EngineConfig } from './config';

type Level = Exclude<EngineConfig['logLevel'], 'silent'>;

export interface Logger {
  log(level: Level, type: string, detail: Record<string, unknown>): void;
}

/** The server's logger: the request line of the hot path too. */
export interface ServerLogger extends Logger {
  /** Whether a line of this level is written at all: the caller builds none otherwise. */
  enabled(level: Level): boolean;
  /** A line whose detail is JSON text already (the request line of the hot path, built without an object). */
  logJson(level: Level, type: string, detailJson: string): void;
}

const RANKS: Record<EngineConfig['logLevel'], number> = { debug: 20, info: 30, warn: 40, error: 50, silent: Infinity };

/** Stdout's lines of this turn of the event loop, written together at its end (or at exit). */
class TurnWriter {
  private pending = '';
  private scheduled = false;
  // Synchronous: a full pipe holds the server back rather than the lines piling up in memory.
  private readonly destination = pino.destination({ dest: 1, sync: true });

  constructor() {
    process.once('exit', () => this.flush());
  }

  write(line: string): boolean {
    this.pending += line;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    return true;
  }

  flush(): void {
    this.scheduled = false;
    if (this.pending === '') return;
    const lines = this.pending;
    this.pending = '';
    this.destination.write(lines);
  }
}

/** One per process: every logger's stdout lines go through it, in the order they were logged. */
let stdoutWriter: TurnWriter | undefined;
let stderrDestination: ReturnType<typeof pino.destination> | undefined;

function standardStreams(): { out: TurnWriter; err: { write(line: string): boolean } } {
  stdoutWriter ??= new TurnWriter();
  stderrDestination ??= pino.destination({ dest: 2, sync: true });
  const out = stdoutWriter;
  const err = stderrDestination;
  return {
    out,
    err: {
      write: (line) => {
        out.flush();
        return err.write(line);
      },
    },
  };
}

/** The timestamp of a line, made once per millisecond. */
let stampedAt = -1;
let stamp = '';
function timestamp(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    stamp = new Date(now).toISOString();
  }
  return stamp;
}

/** `sink`: where every line goes instead (tests read the log from it). */
export function createLogger(threshold: EngineConfig['logLevel'], sink?: { write(line: string): void }): ServerLogger {
  const streams = sink ? { out: sink, err: sink } : standardStreams();
  const logger = pino(
    {
      level: threshold,
      base: null,
      timestamp: () => `,"timestamp":"${timestamp()}"`,
      formatters: { level: (label) => ({ level: label }) },
    },
    sink ??
      pino.multistream(
        [
          { level: 'debug', stream: streams.out },
          { level: 'error', stream: streams.err },
        ],
        { dedupe: true },
      ),
  );
  const rank = RANKS[threshold];
  /** What a line of each type has between its timestamp and its detail: made once. */
  const heads = new Map<string, string>();
  const head = (type: string) => {
    let text = heads.get(type);
    if (text === undefined) {
      text = `","type":${JSON.stringify(type)},"detail":`;
      heads.set(type, text);
    }
    return text;
  };
  return {
    log(level, type, detail) {
      logger[level]({ type, detail });
    },
    enabled: (level) => RANKS[level] >= rank,
    logJson(level, type, detailJson) {
      if (RANKS[level] < rank) return;
      const line = `{"level":"${level}","timestamp":"${timestamp()}${head(type)}${detailJson}}\n`;
      (RANKS[level] >= RANKS.error ? streams.err : streams.out).write(line);
    },
  };
}
