import { useId, useState, type FormEvent } from 'react';
import type { CreateApiKeyRequest, CreatedApiKey } from '../../../../contract/api-keys.ts';
import { createApiKey } from '../../api/account-api.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { useDrafts } from '../auth/draft-provider.tsx';
import { usePublicModels } from '../models/public-models-provider.tsx';

/**
 * Creates a key with a name and optional limits: spend cap, budgets per UTC day and month, expiry date, requests per
 * minute, allowed models.
 */
export function CreateKeyForm(props: { onCreated: (key: CreatedApiKey) => void }) {
  const { messages } = useI18n();
  const text = messages.dashboard;
  const drafts = useDrafts();
  const [name, setNameState] = useState(() => drafts.read('key-name'));
  const [spendCap, setSpendCap] = useState('');
  const [dailyBudget, setDailyBudget] = useState('');
  const [monthlyBudget, setMonthlyBudget] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [requestsPerMinute, setRequestsPerMinute] = useState('');
  const [allowedModels, setAllowedModels] = useState<string[]>([]);
  const { state: models } = usePublicModels();
  const [error, setError] = useState<string | undefined>();
  const [isWorking, setIsWorking] = useState(false);
  const ids = { name: useId(), expires: useId(), rate: useId(), models: useId() };
  const setName = (value: string) => {
    setNameState(value);
    drafts.write('key-name', value);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isWorking || name.trim() === '') return;
    const request: CreateApiKeyRequest = { name: name.trim() };
    if (spendCap.trim()) request.spend_cap_usd = spendCap.trim();
    if (dailyBudget.trim()) request.daily_budget_usd = dailyBudget.trim();
    if (monthlyBudget.trim()) request.monthly_budget_usd = monthlyBudget.trim();
    if (expiresOn) request.expires_at = new Date(`${expiresOn}T23:59:59`).toISOString();
    if (requestsPerMinute.trim()) request.requests_per_minute = Number(requestsPerMinute);
    if (allowedModels.length > 0) request.allowed_models = allowedModels;
    setIsWorking(true);
    setError(undefined);
    try {
      props.onCreated(await createApiKey(request));
      setName('');
      setSpendCap('');
      setDailyBudget('');
      setMonthlyBudget('');
      setExpiresOn('');
      setRequestsPerMinute('');
      setAllowedModels([]);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setIsWorking(false);
    }
  };

  return (
    <form className="key-form" onSubmit={(event) => void submit(event)}>
      <div className="field key-form__name">
        <label className="field__label" htmlFor={ids.name}>
          {text.keyName}
        </label>
        <input
          id={ids.name}
          className="field__input"
          value={name}
          maxLength={100}
          placeholder={text.keyNamePlaceholder}
          onChange={(event) => setName(event.target.value)}
          required
        />
      </div>
      <UsdField label={text.keySpendCap} value={spendCap} onChange={setSpendCap} />
      <UsdField label={text.keyDailyBudget} value={dailyBudget} onChange={setDailyBudget} />
      <UsdField label={text.keyMonthlyBudget} value={monthlyBudget} onChange={setMonthlyBudget} />
      <div className="field">
        <label className="field__label" htmlFor={ids.expires}>
          {text.keyExpires}
        </label>
        <input
          id={ids.expires}
          className="field__input"
          type="date"
          value={expiresOn}
          onChange={(event) => setExpiresOn(event.target.value)}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={ids.rate}>
          {text.keyRequestsPerMinute}
        </label>
        <input
          id={ids.rate}
          className="field__input"
          type="number"
          min={1}
          value={requestsPerMinute}
          onChange={(event) => setRequestsPerMinute(event.target.value)}
        />
      </div>
      <div className="field key-form__models">
        <label className="field__label" htmlFor={ids.models}>
          {text.keyAllowedModels}
        </label>
        <select
          id={ids.models}
          className="field__input"
          multiple
          size={4}
          value={allowedModels}
          onChange={(event) => setAllowedModels([...event.target.selectedOptions].map((option) => option.value))}
        >
          {models.status === 'ready' &&
            models.list.data.map((model) => (
              <option key={model.id} value={model.id}>
                {model.display_name}
              </option>
            ))}
        </select>
      </div>
      <button type="submit" className="button button--primary" disabled={isWorking}>
        {isWorking ? text.creating : text.createKey}
      </button>
      {error && (
        <p className="notice notice--error key-form__error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/** An optional USD amount (cap or budget), sent as typed: the server checks it exactly. */
function UsdField(props: { label: string; value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {props.label}
      </label>
      <input
        id={id}
        className="field__input"
        inputMode="decimal"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </div>
  );
}
