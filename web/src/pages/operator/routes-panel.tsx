import { useCallback, useEffect, useState } from 'react';
import type { OperatorRoute } from '../../../../contract/operator-routes.ts';
import { AddRouteForm } from './add-route-form.tsx';
import { listRoutes, updateRoute } from './operator-api.ts';
import { useOperatorMessages } from './operator-messages.ts';
import { RouteHealthView } from './route-health-view.tsx';

/** How often the open Routes tab asks for fresh health (each node judges its upstreams live). */
const healthRefreshMs = 3000;

/**
 * Upstream routes (`/api/operator/routes`): each with its live health on this node, refreshed every few seconds while
 * the tab is open and the browser tab visible; enable or disable any route (those from the configuration or the
 * sandbox too, so a sick upstream can be taken out); add a new one.
 */
export function RoutesPanel() {
  const text = useOperatorMessages();
  const [routes, setRoutes] = useState<OperatorRoute[]>();
  const [refreshedAt, setRefreshedAt] = useState<Date>();
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const fail = (failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure));
  const load = useCallback(
    (signal?: AbortSignal) =>
      listRoutes(signal ? { signal } : {}).then(
        (list) => {
          setRoutes(list.data);
          setRefreshedAt(new Date());
          setError(undefined);
        },
        (failure: unknown) => {
          if (!signal?.aborted) fail(failure);
        },
      ),
    [],
  );
  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void load(controller.signal);
    }, healthRefreshMs);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [load]);

  const toggle = async (route: OperatorRoute) => {
    try {
      const updated = await updateRoute(route.id, { enabled: !route.enabled });
      setRoutes((current) => current?.map((row) => (row.id === updated.id ? updated : row)));
      setNotice(updated.enabled ? text.routes.enabledNotice : text.routes.disabledNotice);
    } catch (failure) {
      fail(failure);
    }
  };
  return (
    <section className="operator-panel" aria-label={text.tabs.routes}>
      {error && (
        <p className="notice notice--error" role="alert">
          {text.failed} {error}
        </p>
      )}
      {notice && (
        <p className="notice notice--info" role="status">
          {notice}
        </p>
      )}
      <AddRouteForm
        onAdded={() => {
          setNotice(text.routes.added);
          void load();
        }}
        onError={fail}
      />
      <p className="operator-list__meta">{text.routes.implicitNote}</p>
      {routes === undefined && !error && <p role="status">{text.loading}</p>}
      {refreshedAt && (
        <p className="operator-list__meta" data-field="health-refreshed">
          {text.routes.refreshed(refreshedAt.toLocaleTimeString())}
        </p>
      )}
      <ul className="operator-list">
        {routes?.map((route) => (
          <li key={route.id} className="operator-list__item" data-route-id={route.id} data-enabled={route.enabled}>
            <div className="operator-list__main">
              <strong>{route.model}</strong>
              <span>
                {route.provider} · {route.upstream_model}
              </span>
            </div>
            <RouteHealthView route={route} />
            <div className="operator-list__meta">
              {text.routes.origin}: {text.routes.origins[route.origin]} ·{' '}
              <span data-field="enabled">{route.enabled ? text.routes.enabled : text.routes.disabled}</span>
            </div>
            <div className="operator-list__actions">
              <button
                type="button"
                className="button button--small"
                aria-label={`${route.enabled ? text.routes.disable : text.routes.enable} ${route.id}`}
                onClick={() => void toggle(route)}
              >
                {route.enabled ? text.routes.disable : text.routes.enable}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
