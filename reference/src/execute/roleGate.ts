// A fair share of the roles' connections: one role (every user of it together) runs at most
// `perRole` statements at once; its further requests wait in its own queue, in order, so that one
// role's slow queries never hold all the connections another role needs.
import type { Abandonment } from './abandonment';

export class RoleGate {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(readonly perRole: number) {}

  /** Wait for a place of `role`; the function it gives back frees it (once). */
  async enter(role: string, gone?: Abandonment): Promise<() => void> {
    const running = this.running.get(role) ?? 0;
    if (running < this.perRole) {
      this.running.set(role, running + 1);
    } else {
      // A client gone before it would wait takes no place in the queue.
      if (gone?.abandoned) throw gone.reason;
      await new Promise<void>((resolve, reject) => {
        const queue = this.waiting.get(role) ?? [];
        this.waiting.set(role, queue);
        const admit = () => {
          stopListening?.();
          resolve();
        };
        const abandon = () => {
          const i = queue.indexOf(admit);
          if (i >= 0) queue.splice(i, 1);
          reject(gone!.reason);
        };
        queue.push(admit);
        const stopListening = gone?.onAbandon(abandon);
      });
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.leave(role);
    };
  }

  /** Statements of `role` running now (for tests and the log). */
  runningFor(role: string): number {
    return this.running.get(role) ?? 0;
  }

  /** How many roles the gate keeps anything for: none once every place is free and no one waits. */
  rolesHeld(): number {
    return new Set([...this.running.keys(), ...this.waiting.keys()]).size;
  }

  /** A place freed: the next waiting request of the role takes it over. */
  private leave(role: string): void {
    const next = this.waiting.get(role)?.shift();
    if (next) return next();
    if (this.waiting.get(role)?.length === 0) this.waiting.delete(role);
    const running = (this.running.get(role) ?? 1) - 1;
    if (running > 0) this.running.set(role, running);
    else this.running.delete(role);
  }
}
