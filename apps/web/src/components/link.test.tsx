import { fireEvent, render, screen } from '@testing-library/react';
import { createRef, type ReactElement } from 'react';
import { createMemoryRouter, HashRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Link } from './link.tsx';

/** `links` shown at /here and at every other path, in a router the test can read. */
function renderRouter(links: ReactElement, start = '/here') {
  const router = createMemoryRouter([{ path: '*', element: links }], { initialEntries: [start] });
  render(<RouterProvider router={router} />);
  return router;
}

// jsdom cannot follow a link to another document: what the Link leaves to the browser stops here.
const stopDocumentNavigation = (event: Event) => event.preventDefault();
beforeEach(() => document.addEventListener('click', stopDocumentNavigation));
afterEach(() => document.removeEventListener('click', stopDocumentNavigation));

describe('Link', () => {
  it('navigates in the app on a plain left click, with its state, pushing or replacing', () => {
    const router = renderRouter(
      <>
        <Link to="/site/3/log?page=2" state={{ from: 'menu' }} className="x">
          Log
        </Link>
        <Link to="/profile" replace>
          Profile
        </Link>
      </>,
    );
    const log = screen.getByRole('link', { name: 'Log' });
    expect(log.getAttribute('href')).toBe('/site/3/log?page=2');
    expect(log.className).toBe('x');
    fireEvent.click(log);
    expect(router.state.location).toMatchObject({
      pathname: '/site/3/log',
      search: '?page=2',
      state: { from: 'menu' },
    });
    expect(router.state.historyAction).toBe('PUSH');
    fireEvent.click(screen.getByRole('link', { name: 'Profile' }));
    expect(router.state.location.pathname).toBe('/profile');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('leaves modified and middle clicks, another target and a prevented click to the browser', () => {
    const onClick = vi.fn((event: React.MouseEvent) => event.preventDefault());
    const router = renderRouter(
      <>
        <Link to="/a">A</Link>
        <Link to="/b" target="_blank">
          B
        </Link>
        <Link to="/c" onClick={onClick}>
          C
        </Link>
      </>,
    );
    fireEvent.click(screen.getByRole('link', { name: 'A' }), { ctrlKey: true });
    fireEvent.click(screen.getByRole('link', { name: 'A' }), { button: 1 });
    fireEvent.click(screen.getByRole('link', { name: 'B' }));
    fireEvent.click(screen.getByRole('link', { name: 'C' }));
    expect(onClick).toHaveBeenCalledOnce();
    expect(router.state.location.pathname).toBe('/here');
  });

  it("writes the hash router's href and forwards its ref", () => {
    const ref = createRef<HTMLAnchorElement>();
    render(
      <HashRouter>
        <Link to="/auth/register" ref={ref}>
          Register
        </Link>
      </HashRouter>,
    );
    expect(screen.getByRole('link', { name: 'Register' }).getAttribute('href')).toBe('#/auth/register');
    expect(ref.current?.tagName).toBe('A');
  });

  it('resolves a relative path against the route it sits in', () => {
    const router = createMemoryRouter(
      [
        { path: '/company/:id', element: <Link to="dashboard">Dashboard</Link> },
        { path: '/company/:id/dashboard', element: null },
      ],
      { initialEntries: ['/company/7'] },
    );
    render(<RouterProvider router={router} />);
    fireEvent.click(screen.getByRole('link', { name: 'Dashboard' }));
    expect(router.state.location.pathname).toBe('/company/7/dashboard');
  });
});
