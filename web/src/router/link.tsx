import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { useRouter } from './router-provider.tsx';

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: string;
  /** Marks the link as the current page (`aria-current="page"`) when its path is the current one. */
  isNavItem?: boolean;
};

/**
 * An in-app link: a real `<a href>` (so it opens in a new tab, copies and works without script), whose plain left
 * click navigates without reloading the page.
 */
export function Link({ to, isNavItem = false, onClick, ...rest }: LinkProps) {
  const { location, navigate } = useRouter();
  const isCurrent = isNavItem && location.pathname === to;

  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    const isPlainClick = event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
    if (event.defaultPrevented || !isPlainClick || (rest.target !== undefined && rest.target !== '_self')) return;
    event.preventDefault();
    navigate(to);
  };

  return <a {...rest} href={to} onClick={handleClick} aria-current={isCurrent ? 'page' : undefined} />;
}
