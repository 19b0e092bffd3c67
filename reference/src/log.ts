// Structured logs: one JSON object a line on stdout (errors on stderr).
import type { EngineConfig } from './config';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, 'silent'>;

export interface Logger {
  log(level: Level, type: string, detail: Record<string, unknown>): void;
}

export function createLogger(threshold: EngineConfig['logLevel'], write = (line: string, level: Level) => {
  (level === 'error' ? process.stderr : process.stdout).write(line + '\n');
}): Logger {
  return {
    log(level, type, detail) {
      if (LEVELS[level] < LEVELS[threshold]) return;
      write(JSON.stringify({ timestamp: new Date().toISOString(), level, type, detail }), level);
    },
  };
}
