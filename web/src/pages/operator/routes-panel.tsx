import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { OperatorRoute } from '../../../../contract/operator-routes.ts';
import { ApiError } from '../../api/api-client.ts';
import { usePublicModels } from '../../features/models/public-models-provider.tsx';
import { createRoute, listRoutes, updateRoute } from './operator-api.ts';
import { useOperatorMessages } from './operator-messages.ts';

/**
 * Upstream routes (`/api/operator/routes`): each with its live health on this node, enable or disable, and add a new
 * one. Should the gateway not serve the routes API, the panel says so plainly instead of showing an empty table.
 */
export function RoutesPanel() {
  const text = useOperatorMessages();
  const [routes, setRoutes] = useState<OperatorRoute[] | 'unavailable'>();
  const [error, setError] = useState<string>();
  const fail = (failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure));
  const load = useCallback(
    () =>
      listRoutes().then(
        (list) => setRoutes(list.data),
        (failure: unknown) => {
          if (failure instanceof ApiError && failure.status === 404) setRoutes('unavailable');
          else fail(failure);
        },
      ),
    [],
  );
  useEffect(() => void load(), [load]);

  if (routes === 'unavailable') {
    return (
      <p className="notice notice--info" role="note" data-panel="routes-unavailable">
        {text.routes.unavailable}
      </p>
    );
  }
  const toggle = (route: OperatorRoute) => void updateRoute(route.id, { enabled: !route.enabled }).then(load, fail);
  return (
    <section className="operator-panel" aria-label={text.tabs.routes}>
      {error && (
        <p className="notice notice--error" role="alert">
          {text.failed} {error}
        </p>
      )}
      {routes === undefined && <p role="status">{text.loading}</p>}
      <ul className="operator-list">
        {routes?.map((route) => (
          <li key={route.id} className="operator-list__item" data-route-id={route.id}>
            <div className="operator-list__main">
              <strong>{route.model}</strong>
              <span>
                {route.provider} · {route.upstream_model}
              </span>
            </div>
            <div className="operator-list__meta">
              {text.routes.health}: <span data-field="health">{route.health.state}</span> ·{' '}
              {Math.round(route.health.error_rate * 100)}% {text.routes.errorRate}
              {route.health.time_to_first_token_ms !== null &&
                ` · ${text.routes.firstToken} ${Math.round(route.health.time_to_first_token_ms)} ms`}{' '}
              · {text.routes.origin}: {route.origin} · {route.enabled ? text.routes.enabled : text.routes.disabled}
            </div>
            <div className="operator-list__actions">
              {route.origin === 'database' ? (
                <button type="button" className="button button--small" onClick={() => toggle(route)}>
                  {route.enabled ? text.routes.disable : text.routes.enable}
                </button>
              ) : (
                <span className="operator-list__meta">{text.routes.fixed}</span>
              )}
            </div>
          </li>
        ))}
      </ul>
      <AddRouteForm onAdded={() => void load()} onError={fail} />
    </section>
  );
}

function AddRouteForm(props: { onAdded: () => void; onError: (failure: unknown) => void }) {
  const text = useOperatorMessages();
  const { state } = usePublicModels();
  const models = state.status === 'ready' ? state.list.data : [];
  const [model, setModel] = useState('');
  const [provider, setProvider] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [upstreamModel, setUpstreamModel] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await createRoute({
        model: model || (models[0]?.id ?? ''),
        provider: provider.trim(),
        base_url: baseUrl.trim(),
        ...(apiKey ? { api_key: apiKey } : {}),
        ...(upstreamModel.trim() ? { upstream_model: upstreamModel.trim() } : {}),
      });
      setApiKey('');
      props.onAdded();
    } catch (failure) {
      props.onError(failure);
    }
  };

  return (
    <form className="operator-form" onSubmit={(event) => void submit(event)}>
      <label className="field">
        <span className="field__label">{text.routes.model}</span>
        <select name="route-model" value={model} onChange={(event) => setModel(event.target.value)}>
          {models.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.id}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field__label">{text.routes.provider}</span>
        <input name="route-provider" required value={provider} onChange={(event) => setProvider(event.target.value)} />
      </label>
      <label className="field">
        <span className="field__label">{text.routes.baseUrl}</span>
        <input
          name="route-base-url"
          type="url"
          required
          value={baseUrl}
          onChange={(event) => setBaseUrl(event.target.value)}
        />
      </label>
      <label className="field">
        <span className="field__label">{text.routes.upstreamModel}</span>
        <input
          name="route-upstream-model"
          value={upstreamModel}
          onChange={(event) => setUpstreamModel(event.target.value)}
        />
      </label>
      <label className="field">
        <span className="field__label">{text.routes.apiKey}</span>
        <input
          name="route-api-key"
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={(event) => setApiKey(event.target.value)}
        />
      </label>
      <button type="submit" className="button button--primary">
        {text.routes.add}
      </button>
    </form>
  );
}
