import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderApp } from '../../../testing/render.tsx';
import { readResetToken } from './reset-password-page.tsx';

describe('reset password page', () => {
  it('has the text, both fields, the button and links', async () => {
    renderApp('/auth/reset-password?reset_password_token=abc');
    expect(await screen.findByText('Please enter a new password')).toBeInTheDocument();
    expect(screen.getByLabelText('New Password')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm Password')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Change password' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign Up' })).toBeInTheDocument();
  });

  it('reads reset_password_token from the hash query, else from the page query string', () => {
    expect(readResetToken(new URLSearchParams('reset_password_token=hash-token'), '')).toBe('hash-token');
    expect(readResetToken(new URLSearchParams(''), '?reset_password_token=search-token')).toBe(
      'search-token',
    );
    expect(readResetToken(new URLSearchParams(''), '')).toBe('');
  });

  it('validates password and confirmation', async () => {
    const { user } = renderApp('/auth/reset-password?reset_password_token=abc');
    const password = await screen.findByLabelText('New Password');
    await user.type(password, 'abc');
    await user.tab();
    expect(screen.getByText('Password should contains from 4 to 50 characters')).toBeInTheDocument();
    await user.tab();
    expect(await screen.findByText('Password confirmation is required!')).toBeInTheDocument();
    await user.type(password, 'd');
    await user.type(screen.getByLabelText('Confirm Password'), 'abce');
    expect(await screen.findByText('Password does not match the confirm password.')).toBeInTheDocument();
  });

  it('sends PUT with the token and goes to login after 500 ms', async () => {
    const api = mockFetch({ 'PUT /api/auth/reset-pass': json({ data: { messages: [] } }) });
    const { user, location } = renderApp('/auth/reset-password?reset_password_token=tok-123');
    await user.type(await screen.findByLabelText('New Password'), 'newpass1');
    await user.type(screen.getByLabelText('Confirm Password'), 'newpass1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Your password has been successfully changed.')).toBeInTheDocument();
    expect(api.calls[0].body).toEqual({
      password: 'newpass1',
      confirmPassword: 'newpass1',
      reset_password_token: 'tok-123',
    });
    await waitFor(() => expect(location.current.pathname).toBe('/auth/login'));
  });
});
