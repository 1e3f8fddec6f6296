import { useId } from 'react';

/** A labelled text input with an optional hint under it: the `field` markup of the account forms, written once. */
export function TextField(props: {
  label: string;
  type: 'email' | 'password' | 'text';
  autoComplete: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
}) {
  const id = useId();
  const hintId = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {props.label}
      </label>
      <input
        id={id}
        className="field__input"
        type={props.type}
        autoComplete={props.autoComplete}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        aria-describedby={props.hint === undefined ? undefined : hintId}
        required
      />
      {props.hint !== undefined && (
        <p id={hintId} className="field__hint">
          {props.hint}
        </p>
      )}
    </div>
  );
}
