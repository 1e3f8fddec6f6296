import { CopyButton } from './copy-button.tsx';

/** A block of code to copy and paste, with a copy button. `label` names it for the button and screen readers. */
export function CodeBlock(props: { code: string; label: string; copyLabel: string; language?: string }) {
  return (
    <figure className="code-block">
      <figcaption className="code-block__bar">
        <span className="code-block__label">{props.label}</span>
        <CopyButton text={props.code} accessibleLabel={props.copyLabel} />
      </figcaption>
      <pre className="code-block__code" tabIndex={0} aria-label={props.label}>
        <code data-language={props.language}>{props.code}</code>
      </pre>
    </figure>
  );
}
