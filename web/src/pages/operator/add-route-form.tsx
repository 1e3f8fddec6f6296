import { useState, type FormEvent } from 'react';
import { usePublicModels } from '../../features/models/public-models-provider.tsx';
import { createRoute } from './operator-api.ts';
import { useOperatorMessages } from './operator-messages.ts';

/** Adds an upstream route for a model; the vendor credential is sent once and never shown again. */
export function AddRouteForm(props: { onAdded: () => void; onError: (failure: unknown) => void }) {
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
      setBaseUrl('');
      setUpstreamModel('');
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
