// What the operating system says about a process: alive or not, and which process a pid is now.
// Lock files and postmaster.pid outlive the processes that wrote them; a pid read back may be
// dead, a zombie nobody reaped, or reused by an unrelated process.
import { readFileSync } from 'node:fs';

/** Running (or stopped) and not a zombie. A pid owned by another user counts as alive. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return processState(pid) !== 'Z';
}

/** The state letter of /proc/<pid>/stat (R, S, Z, …); undefined where /proc does not exist. */
function processState(pid: number): string | undefined {
  const stat = readStat(pid);
  return stat?.[0];
}

/**
 * When the process started, in clock ticks since boot (Linux); undefined elsewhere. With the pid
 * it names one process for the life of the machine, so a reused pid is told apart.
 */
export function processStartTime(pid: number): string | undefined {
  return readStat(pid)?.[19];
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function readStat(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The command line of a process (Linux); undefined where it cannot be read. */
export function commandLine(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((part) => part !== '');
  } catch {
    return undefined;
  }
}

export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
