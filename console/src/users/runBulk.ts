import type { Identifier } from 'react-admin';

/** What a bulk action did to one user: done, or refused with the API's message. */
export interface BulkResult {
  id: Identifier;
  email: string;
  ok: boolean;
  error?: string;
}

/**
 * Runs `act` on each target, one after the other in the order given, and answers each one's outcome: one refusal
 * (the API's catalogue message) does not stop the others.
 */
export async function runBulk<T extends { id: Identifier; email: string }>(
  targets: readonly T[],
  act: (target: T) => Promise<unknown>,
): Promise<BulkResult[]> {
  const results: BulkResult[] = [];
  for (const target of targets) {
    try {
      await act(target);
      results.push({ id: target.id, email: target.email, ok: true });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      results.push({ id: target.id, email: target.email, ok: false, error: message });
    }
  }
  return results;
}
