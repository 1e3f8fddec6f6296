import { useId } from 'react';
import type { PublicModel } from '../../../../contract/models.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { formatUsd } from '../../lib/format-usd.ts';

/** The text models with their prices per 1M input and output tokens, from the live price list. */
export function ModelPicker(props: { models: PublicModel[]; value: string; onChange: (modelId: string) => void }) {
  const { messages } = useI18n();
  const id = useId();
  return (
    <div className="field model-picker">
      <label className="field__label" htmlFor={id}>
        {messages.chat.model}
      </label>
      <select
        id={id}
        className="field__input"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      >
        {props.models.map((model) => (
          <option key={model.id} value={model.id}>
            {`${model.display_name} — ${messages.chat.modelPrices(
              formatUsd(model.input_usd_per_million),
              formatUsd(model.output_usd_per_million),
            )}`}
          </option>
        ))}
      </select>
    </div>
  );
}
