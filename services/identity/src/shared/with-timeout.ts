/**
 * `work`, or a rejection with `message` once `ms` have passed: a caller must not wait on a dependency that hangs.
 * A late failure of `work` after the timeout is swallowed (the timeout already reported it).
 */
export function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  work.catch(() => {});
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
