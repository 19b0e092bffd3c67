// Structured logs with pino: one JSON object a line, {level, timestamp, type, detail}, on stdout
// (errors on stderr), written synchronously so that the last lines before an exit are kept.
import pino from 'pino';
import type { EngineConfig } from './config';

type Level = Exclude<EngineConfig['logLevel'], 'silent'>;

export interface Logger {
  log(level: Level, type: string, detail: Record<string, unknown>): void;
}

/** `sink`: where every line goes instead (tests read the log from it). */
export function createLogger(threshold: EngineConfig['logLevel'], sink?: { write(line: string): void }): Logger {
  const streams =
    sink ??
    pino.multistream(
      [
        { level: 'debug', stream: pino.destination({ dest: 1, sync: true }) },
        { level: 'error', stream: pino.destination({ dest: 2, sync: true }) },
      ],
      { dedupe: true },
    );
  const logger = pino(
    {
      level: threshold,
      base: null,
      timestamp: () => `,"timestamp":"${new Date().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
    },
    streams,
  );
  return {
    log(level, type, detail) {
      logger[level]({ type, detail });
    },
  };
}
