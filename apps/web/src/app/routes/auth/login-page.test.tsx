import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../testing/factories.ts';
import { fakeJwt, json, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderApp } from '../../../testing/render.tsx';

const signInButton = () => screen.getByRole('button', { name: 'Sign In' });

describe('login page', () => {
  it('shows the title, subtitle, fields, links and Remember me ticked by default', async () => {
    renderApp('/auth/login');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByText('Hello! Sign in with your username')).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('checkbox', { name: 'Remember me' })).toBeChecked();
    expect(screen.getByRole('link', { name: 'Forgot Password?' })).toHaveAttribute(
      'href',
      '/auth/request-password',
    );
  });

  it('#/auth shows the login too', async () => {
    renderApp('/auth');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
  });

  it('disables Sign In while the form is invalid and shows the password messages', async () => {
    const { user } = renderApp('/auth/login');
    const password = await screen.findByLabelText('Password');
    expect(signInButton()).toBeDisabled();
    await user.click(password);
    await user.tab();
    expect(await screen.findByText('Password is required!')).toBeInTheDocument();
    await user.type(password, 'abc');
    expect(screen.getByText('Password should contains from 4 to 50 characters')).toBeInTheDocument();
    expect(signInButton()).toBeDisabled();
    await user.type(password, 'd');
    expect(screen.queryByText('Password should contains from 4 to 50 characters')).not.toBeInTheDocument();
    expect(signInButton()).toBeEnabled();
    await user.type(password, 'x'.repeat(47));
    expect(screen.getByText('Password should contains from 4 to 50 characters')).toBeInTheDocument();
  });

  it('username is optional', async () => {
    const { user } = renderApp('/auth/login');
    await user.type(await screen.findByLabelText('Password'), 'demo1234');
    expect(signInButton()).toBeEnabled();
  });

  it('a wrong password ends on the login page with "Oh snap!" and the server error', async () => {
    const api = mockFetch({
      'POST /api/auth/login': json(
        { data: { errors: ['Login/Email combination is not correct, please try again.'] } },
        401,
      ),
      'GET /api/user/': json({ data: { errors: ['no token'] } }, 401),
    });
    const { user, location } = renderApp('/auth/login');
    await user.type(await screen.findByLabelText('Username'), 'agent');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(signInButton());
    // The login flow (docs/product.md#login-flow): on to agent/dashboard whatever the result, and the guard sends us back.
    await waitFor(() => expect(location.current.state).toEqual({ from: '/agent/dashboard' }));
    await waitFor(() => {
      const alert = screen.getByRole('alert');
      expect(within(alert).getByText('Oh snap!')).toBeInTheDocument();
      expect(
        within(alert).getByText('Login/Email combination is not correct, please try again.'),
      ).toBeInTheDocument();
    });
    expect(location.current.pathname).toBe('/auth/login');
    expect(screen.getByLabelText('Username')).toHaveValue('agent');
    expect(api.find('POST', '/api/auth/login')[0].body).toEqual({
      username: 'agent',
      password: 'wrong-password',
      rememberMe: true,
    });
    expect(localStorage.getItem('auth_app_token')).toBeNull();
  });

  it('without a server errors list, says the combination is not correct', async () => {
    mockFetch({ 'POST /api/auth/login': json({}, 401) });
    const { user } = renderApp('/auth/login');
    await user.type(await screen.findByLabelText('Password'), 'wrong-password');
    await user.click(signInButton());
    await waitFor(() =>
      expect(
        screen.getByText('Login/Email combination is not correct, please try again.'),
      ).toBeInTheDocument(),
    );
  });

  it('hides the alerts and disables the button while submitting', async () => {
    let release: (v: unknown) => void = () => {};
    let calls = 0;
    mockFetch({
      'POST /api/auth/login': async () => {
        calls += 1;
        if (calls > 1) await new Promise((resolve) => (release = resolve));
        return json({ data: { errors: ['Nope'] } }, 401);
      },
    });
    const { user } = renderApp('/auth/login');
    await user.type(await screen.findByLabelText('Password'), 'wrong-password');
    await user.click(signInButton());
    // Back on a fresh login page after the guard's bounce: the password field is empty again.
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveValue(''));
    await waitFor(() => expect(screen.getByText('Nope')).toBeInTheDocument());
    await user.type(screen.getByLabelText('Password'), 'another-try');
    await user.click(signInButton());
    await waitFor(() => expect(screen.queryByText('Oh snap!')).not.toBeInTheDocument());
    expect(signInButton()).toBeDisabled();
    release(null);
    await waitFor(() => expect(screen.getByText('Oh snap!')).toBeInTheDocument());
  });

  it('signs in: stores token and user, goes to agent/dashboard', async () => {
    const token = fakeJwt();
    mockFetch({
      'POST /api/auth/login': json({ token, data: { messages: ['You have been successfully logged in.'] } }),
      'GET /api/user/': json(makeUser({ name: 'Alex Agent' })),
      'POST /api-token-verify/': json({ token }),
    });
    const { user, location } = renderApp('/auth/login');
    await user.type(await screen.findByLabelText('Username'), 'agent');
    await user.type(screen.getByLabelText('Password'), 'demo1234');
    await user.click(signInButton());
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(location.current.pathname).toBe('/agent/dashboard');
    expect(localStorage.getItem('auth_app_token')).toBe(token);
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ name: 'Alex Agent' });
  });

  it('sends an already signed-in visitor straight to agent/dashboard', async () => {
    mockFetch({});
    const { location } = renderApp('/auth/login', { user: makeUser() });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(location.current.pathname).toBe('/agent/dashboard');
  });

  it('speaks French when asked', async () => {
    renderApp('/auth/login', { lang: 'fr' });
    expect(await screen.findByRole('heading', { name: 'Connexion' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Se connecter' })).toBeDisabled();
  });
});
