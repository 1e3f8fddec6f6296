import { createContext, use, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { PublicModelList } from '../../../../contract/models.ts';
import { getPublicModels } from '../../api/get-public-models.ts';

export type PublicModelsState =
  { status: 'loading' } | { status: 'ready'; list: PublicModelList } | { status: 'error'; message: string };

export type PublicModels = { state: PublicModelsState; reload: () => void };

const PublicModelsContext = createContext<PublicModels | undefined>(undefined);

/**
 * Loads the public price list once for the whole app: the models page, the docs (base addresses, example model
 * ids) and the header's sandbox badge all read the same copy.
 */
export function PublicModelsProvider(props: { children: ReactNode }) {
  const [state, setState] = useState<PublicModelsState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    getPublicModels({ signal: controller.signal }).then(
      (list) => setState({ status: 'ready', list }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ status: 'error', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  // A loaded list stays on screen while the fresh one loads, so forms below it (the operator's) are not torn down.
  const reload = useCallback(() => {
    setState((current) => (current.status === 'ready' ? current : { status: 'loading' }));
    setAttempt((count) => count + 1);
  }, []);

  const value = useMemo(() => ({ state, reload }), [state, reload]);
  return <PublicModelsContext value={value}>{props.children}</PublicModelsContext>;
}

/** The public price list's loading state, and `reload` to fetch it again (after an error, or a price change). */
export function usePublicModels(): PublicModels {
  const publicModels = use(PublicModelsContext);
  if (!publicModels) throw new Error('usePublicModels needs a <PublicModelsProvider> above it');
  return publicModels;
}
