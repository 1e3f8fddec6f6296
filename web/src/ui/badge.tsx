import type { ReactNode } from 'react';

export type BadgeTone = 'neutral' | 'sandbox' | 'accent';

/** A short label beside a name, such as "sandbox" on a simulated model. */
export function Badge(props: { tone?: BadgeTone; title?: string; children: ReactNode }) {
  return (
    <span className={`badge badge--${props.tone ?? 'neutral'}`} title={props.title}>
      {props.children}
    </span>
  );
}
