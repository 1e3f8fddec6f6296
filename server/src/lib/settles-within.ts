/**
 * Whether `work` settles (resolves or rejects) within `ms`. It keeps running either way (its rejection is handled
 * here, so one after the wait is not unhandled). The timer does not keep the process alive.
 */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      waited,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
