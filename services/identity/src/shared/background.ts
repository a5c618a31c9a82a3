/**
 * Work a request starts but does not wait for (mail for a known address, so the answer takes the same time
 * whether or not the address exists and its timing reveals no account). The work starts on the next turn of the
 * event loop, once the request's answer is on its way, so not even its first synchronous steps fall in the
 * request's time. Failures are logged; `drain` lets shutdown and tests wait for what is still running.
 */
export class BackgroundTasks {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly onError: (error: unknown, label: string) => void) {}

  run(label: string, work: () => Promise<unknown>): void {
    const task: Promise<void> = new Promise<void>((started) => setImmediate(started))
      .then(work)
      .then(() => undefined)
      .catch((error) => this.onError(error, label))
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  async drain(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }
}
