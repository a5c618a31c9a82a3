/**
 * Runs a batched delete until a batch comes back short, so a sweep never holds one long lock on a big table.
 * `remove` deletes up to `batch` rows and says how many went; the total is returned.
 */
export async function drainBatches(remove: (batch: number) => Promise<number>, batch = 1000): Promise<number> {
  let total = 0;
  for (;;) {
    const removed = await remove(batch);
    total += removed;
    if (removed < batch) return total;
  }
}
