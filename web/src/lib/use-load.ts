import { useCallback, useEffect, useState } from 'react';

export type LoadState<Value> =
  { status: 'loading' } | { status: 'ready'; value: Value } | { status: 'error'; message: string };

/**
 * Runs `load` when `key` changes (aborting the previous run) and on `reload`; the latest answer wins. `key` is a
 * string so callers say exactly what the load depends on.
 */
export function useLoad<Value>(
  load: (signal: AbortSignal) => Promise<Value>,
  key: string,
): { state: LoadState<Value>; reload: () => void } {
  const [state, setState] = useState<LoadState<Value>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (value) => {
        if (!controller.signal.aborted) setState({ status: 'ready', value });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) {
          setState({ status: 'error', message: error instanceof Error ? error.message : String(error) });
        }
      },
    );
    return () => controller.abort();
    // `load` is a new closure on every render; `key` names what it depends on.
  }, [key, attempt]);

  const reload = useCallback(() => setAttempt((count) => count + 1), []);
  return { state, reload };
}
