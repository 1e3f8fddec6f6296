import { useId } from 'react';

/** One choice; `shortLabel`, when given, is what is shown, and `label` is what screen readers hear. */
export type SegmentedOption<Value extends string> = { value: Value; label: string; shortLabel?: string; lang?: string };

/**
 * One choice out of a few, shown side by side: native radio buttons in a fieldset, so arrow keys, labels and
 * screen readers work as they do for any radio group.
 */
export function SegmentedControl<Value extends string>(props: {
  legend: string;
  isLegendHidden?: boolean;
  options: readonly SegmentedOption<Value>[];
  value: Value;
  onChange: (value: Value) => void;
  className?: string;
}) {
  const name = useId();
  return (
    <fieldset className={['segmented', props.className].filter(Boolean).join(' ')}>
      <legend className={props.isLegendHidden ? 'visually-hidden' : 'field__label'}>{props.legend}</legend>
      <div className="segmented__options">
        {props.options.map((option) => (
          <label key={option.value} className="segmented__option" lang={option.lang}>
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={option.value === props.value}
              onChange={() => props.onChange(option.value)}
            />
            {option.shortLabel === undefined ? (
              <span>{option.label}</span>
            ) : (
              <span title={option.label}>
                <span aria-hidden="true">{option.shortLabel}</span>
                <span className="visually-hidden">{option.label}</span>
              </span>
            )}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
