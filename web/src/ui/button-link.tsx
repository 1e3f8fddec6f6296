import type { ReactNode } from 'react';
import { Link } from '../router/link.tsx';

/** An in-app link that looks like a button, for calls to action. */
export function ButtonLink(props: { to: string; variant?: 'primary' | 'secondary'; children: ReactNode }) {
  return (
    <Link to={props.to} className={`button button--${props.variant ?? 'primary'}`}>
      {props.children}
    </Link>
  );
}
