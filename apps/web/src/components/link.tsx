import { type AnchorHTMLAttributes, forwardRef, type MouseEvent } from 'react';
import { type To, useHref, useLinkClickHandler } from 'react-router';

export interface LinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  /** A path inside the console (the links go nowhere else). */
  to: To;
  replace?: boolean;
  state?: unknown;
}

/**
 * The console's router link, made with react-router's own `useHref` and `useLinkClickHandler` (the hooks it
 * offers for custom links): an `<a href="#/…">` whose plain left click navigates in the app, while a modified or
 * middle click, or a `target`, is left to the browser. react-router's `Link` carries its framework-mode prefetch
 * code (page links, route modules, RSC), ~2 KB gzip that a module-level bundle cannot leave out of the login
 * route's chunk: its whole library is one module, there as soon as any screen imports `Link` (decision 0006).
 * `lint` forbids importing `Link` and `NavLink` from react-router.
 */
export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(
  { to, replace, state, target, onClick, ...rest },
  ref,
) {
  const href = useHref(to);
  const navigate = useLinkClickHandler(to, { replace, state, target });
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (!event.defaultPrevented) navigate(event);
  };
  return <a {...rest} href={href} target={target} onClick={handleClick} ref={ref} />;
});
