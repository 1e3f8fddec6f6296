/**
 * Calls for the same key while one is in flight share its promise, so a burst of callers that find the same thing
 * missing from a cache makes one query, not one each. The key is free again once that promise settles.
 */
export function createSingleFlight<Value>(): (key: string, run: () => Promise<Value>) => Promise<Value> {
  const inFlight = new Map<string, Promise<Value>>();
  return (key, run) => {
    let pending = inFlight.get(key);
    if (!pending) {
      pending = run().finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    return pending;
  };
}
