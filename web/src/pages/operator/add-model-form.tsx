import { useState, type FormEvent } from 'react';
import type { CreateModelRequest } from '../../../../contract/operator-models.ts';
import { createModel } from './operator-api.ts';
import { useOperatorMessages } from './operator-messages.ts';

const emptyForm = {
  id: '',
  name: '',
  family: '',
  kind: 'text' as 'text' | 'image',
  contextLength: '',
  listInput: '',
  listOutput: '',
  listPerImage: '',
  input: '',
  output: '',
  perImage: '',
  confirmBelowCost: false,
};

/**
 * Adds a model. Amounts go to the server as typed: it checks them exactly and answers a clear error naming the field
 * (shown above the table), and refuses a price below cost unless the box is ticked.
 */
export function AddModelForm(props: { families: string[]; onAdded: () => void; onError: (failure: unknown) => void }) {
  const text = useOperatorMessages();
  const [form, setForm] = useState(emptyForm);
  const set = <Key extends keyof typeof emptyForm>(key: Key, value: (typeof emptyForm)[Key]) =>
    setForm((current) => ({ ...current, [key]: value }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const optional = (value: string) => (value.trim() === '' ? undefined : value.trim());
    const isText = form.kind === 'text';
    const request: CreateModelRequest = {
      id: form.id.trim(),
      display_name: form.name.trim(),
      family: form.family.trim(),
      kind: form.kind,
      context_length: Number(form.contextLength),
      max_output_tokens: 0,
      ...(isText
        ? { list_input_usd_per_million: form.listInput.trim(), list_output_usd_per_million: form.listOutput.trim() }
        : { list_usd_per_request: form.listPerImage.trim() }),
      ...(optional(form.input) === undefined ? {} : { input_usd_per_million: form.input.trim() }),
      ...(optional(form.output) === undefined ? {} : { output_usd_per_million: form.output.trim() }),
      ...(optional(form.perImage) === undefined ? {} : { usd_per_request: form.perImage.trim() }),
      ...(form.confirmBelowCost ? { confirm_below_cost: true } : {}),
    };
    try {
      await createModel(request);
      setForm(emptyForm);
      props.onAdded();
    } catch (failure) {
      props.onError(failure);
    }
  };
  const field = (
    key:
      'id' | 'name' | 'contextLength' | 'listInput' | 'listOutput' | 'listPerImage' | 'input' | 'output' | 'perImage',
    isRequired: boolean,
  ) => (
    <label className="field">
      <span className="field__label">{text.models[key]}</span>
      <input
        name={`model-${key}`}
        required={isRequired}
        inputMode={key === 'id' || key === 'name' ? undefined : 'decimal'}
        value={form[key]}
        onChange={(event) => set(key, event.target.value)}
      />
    </label>
  );
  return (
    <form className="operator-form" aria-label={text.models.add} onSubmit={(event) => void submit(event)}>
      <h2>{text.models.add}</h2>
      {field('id', true)}
      {field('name', true)}
      <label className="field">
        <span className="field__label">{text.models.family}</span>
        <input
          name="model-family"
          list="model-families"
          required
          value={form.family}
          onChange={(event) => set('family', event.target.value)}
        />
        <datalist id="model-families">
          {props.families.map((family) => (
            <option key={family} value={family} />
          ))}
        </datalist>
      </label>
      <label className="field">
        <span className="field__label">{text.models.kind}</span>
        <select
          name="model-kind"
          value={form.kind}
          onChange={(event) => set('kind', event.target.value as 'text' | 'image')}
        >
          <option value="text">text</option>
          <option value="image">image</option>
        </select>
      </label>
      {field('contextLength', true)}
      {form.kind === 'text' ? (
        <>
          {field('listInput', true)}
          {field('listOutput', true)}
          {field('input', false)}
          {field('output', false)}
        </>
      ) : (
        <>
          {field('listPerImage', true)}
          {field('perImage', false)}
        </>
      )}
      <label className="field field--checkbox">
        <input
          type="checkbox"
          name="model-confirm-below-cost"
          checked={form.confirmBelowCost}
          onChange={(event) => set('confirmBelowCost', event.target.checked)}
        />
        <span>{text.models.confirmBelowCost}</span>
      </label>
      <button type="submit" className="button">
        {text.models.add}
      </button>
    </form>
  );
}
