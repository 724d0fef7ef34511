/** Waits for the promises to settle, but no longer than `ms` (a stop that must not hang shutdown). */
export async function settleWithin(promises: Iterable<Promise<unknown>>, ms: number): Promise<void> {
  let timeout: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled([...promises]),
    new Promise((resolve) => {
      timeout = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timeout);
}
