/**
 * Makes a cache's reload safe to call from several places at once (the change it follows, the cache-version
 * watcher, a renewal pass). Loads run one at a time, so a load that read the database earlier can never finish
 * after, and overwrite, one that read it later. A call made while a load runs waits for one more load that starts
 * after it, shared by every call made in the meantime: whoever changed a row and then calls `reload` sees the change.
 */
export function createSerialReload(load: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const start = (): Promise<void> => {
    const run = load().finally(() => {
      if (running === run) running = undefined;
    });
    running = run;
    return run;
  };
  return () => {
    if (!running) return start();
    if (!next) {
      next = running
        .catch(() => undefined)
        .then(() => {
          next = undefined;
          return start();
        });
    }
    return next;
  };
}
