import { AUTH_REDIRECT_DELAY_MS } from '@forecourt/contract/rules';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderApp } from '../../../testing/render.tsx';

describe('request password page', () => {
  it('has the text, one email field, the button and links to Sign In and Sign Up', async () => {
    renderApp('/auth/request-password');
    expect(
      await screen.findByText("Enter your email adress and we'll send a link to reset your password"),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Email address')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Request password' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth/login');
    expect(screen.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/auth/register');
  });

  it('validates the email', async () => {
    const { user } = renderApp('/auth/request-password');
    const email = await screen.findByLabelText('Email address');
    await user.click(email);
    await user.tab();
    expect(await screen.findByText('Email is required!')).toBeInTheDocument();
    await user.type(email, 'a@b');
    expect(screen.getByText('Email should be the real one!')).toBeInTheDocument();
    await user.type(email, '.c');
    expect(screen.queryByText('Email should be the real one!')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Request password' })).toBeEnabled();
  });

  it('sends {email}, says Hooray!, then after 500 ms the login page repeats the message', async () => {
    const api = mockFetch({ 'POST /api/auth/request-pass': json({ data: { messages: [] } }) });
    const { user, location } = renderApp('/auth/request-password');
    await user.type(await screen.findByLabelText('Email address'), 'robin@example.com');
    await user.click(screen.getByRole('button', { name: 'Request password' }));
    expect(await screen.findByText('Hooray!')).toBeInTheDocument();
    expect(screen.getByText('Reset password instructions have been sent to your email.')).toBeInTheDocument();
    expect(api.calls[0].body).toEqual({ email: 'robin@example.com' });
    await waitFor(() => expect(location.current.pathname).toBe('/auth/login'));
    // The login page is a lazy route: until it commits, the old page (with the same text) stays on screen.
    const login = await screen.findByRole('form', { name: 'Login' });
    expect(
      within(login).getByText('Reset password instructions have been sent to your email.'),
    ).toBeInTheDocument();
  });

  it('a failure says so and stays', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockFetch({ 'POST /api/auth/request-pass': json({}, 500) });
    const { user, location } = renderApp('/auth/request-password');
    await user.type(await screen.findByLabelText('Email address'), 'robin@example.com');
    await user.click(screen.getByRole('button', { name: 'Request password' }));
    expect(await screen.findByText('Something went wrong, please try again.')).toBeInTheDocument();
    // Well past the delay after which a success leaves for the login page: every timer due has run.
    await act(() => vi.advanceTimersByTimeAsync(AUTH_REDIRECT_DELAY_MS * 4));
    expect(location.current.pathname).toBe('/auth/request-password');
  });
});
