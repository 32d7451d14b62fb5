import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../testing/factories.ts';
import { fakeJwt, json, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderApp } from '../../../testing/render.tsx';

const registerButton = () => screen.getByRole('button', { name: 'Register' });

async function fillValid(user: ReturnType<typeof renderApp>['user']) {
  await user.type(await screen.findByLabelText('Full name'), 'Robin Fuel');
  await user.type(screen.getByLabelText('Email address'), 'robin@example.com');
  await user.type(screen.getByLabelText('Password'), 'secret1');
  await user.type(screen.getByLabelText('Confirm password'), 'secret1');
  await user.click(screen.getByRole('checkbox', { name: 'Agree to Terms & Conditions' }));
}

describe('register page', () => {
  it('is the Sign Up screen: heading, document title, fields, terms checkbox, button and sign-in link', async () => {
    renderApp('/auth/register');
    expect(await screen.findByRole('heading', { name: 'Sign Up' })).toBeInTheDocument();
    expect(document.title).toBe('Sign Up · Forecourt');
    for (const label of ['Full name', 'Email address', 'Password', 'Confirm password']) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    expect(screen.getByRole('checkbox', { name: 'Agree to Terms & Conditions' })).not.toBeChecked();
    expect(screen.getByText(/Already have an account\?/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/auth/login');
    expect(registerButton()).toBeDisabled();
  });

  it('shows every validation message of docs/product.md#validation-rules, word for word', async () => {
    const { user } = renderApp('/auth/register');
    const email = await screen.findByLabelText('Email address');
    await user.click(email);
    await user.tab();
    expect(await screen.findByText('Email is required!')).toBeInTheDocument();
    await user.type(email, 'not-an-email');
    expect(screen.getByText('Email should be the real one!')).toBeInTheDocument();

    const password = screen.getByLabelText('Password');
    await user.click(password);
    await user.tab();
    expect(screen.getByText('Password is required!')).toBeInTheDocument();
    await user.type(password, 'abc');
    expect(screen.getByText('Password should contains from 4 to 50 characters')).toBeInTheDocument();

    const confirm = screen.getByLabelText('Confirm password');
    await user.click(confirm);
    await user.tab();
    expect(screen.getByText('Password confirmation is required!')).toBeInTheDocument();

    const fullName = screen.getByLabelText('Full name');
    await user.type(fullName, 'Ann');
    await user.tab();
    expect(screen.getByText('Full name should contains from 4 to 50 characters')).toBeInTheDocument();
    await user.clear(fullName);
    expect(screen.queryByText('Full name should contains from 4 to 50 characters')).not.toBeInTheDocument();
  });

  it('says when the confirmation does not match', async () => {
    const { user } = renderApp('/auth/register');
    await user.type(await screen.findByLabelText('Email address'), 'robin@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.type(screen.getByLabelText('Confirm password'), 'secret2');
    await user.click(screen.getByRole('checkbox', { name: 'Agree to Terms & Conditions' }));
    expect(await screen.findByText('Password does not match the confirm password.')).toBeInTheDocument();
    expect(registerButton()).toBeDisabled();
  });

  it('says the confirmation does not match as soon as it is left, whatever the other fields hold', async () => {
    const { user } = renderApp('/auth/register');
    await user.type(await screen.findByLabelText('Password'), 'secret1');
    await user.type(screen.getByLabelText('Confirm password'), 'secret2');
    expect(screen.queryByText('Password does not match the confirm password.')).not.toBeInTheDocument();
    await user.tab();
    expect(screen.getByText('Password does not match the confirm password.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Confirm password'));
    await user.type(screen.getByLabelText('Confirm password'), 'secret1');
    expect(screen.queryByText('Password does not match the confirm password.')).not.toBeInTheDocument();
  });

  it('needs the terms ticked, and says so in words of its own', async () => {
    const { user } = renderApp('/auth/register');
    await fillValid(user);
    expect(registerButton()).toBeEnabled();
    await user.click(screen.getByRole('checkbox', { name: 'Agree to Terms & Conditions' }));
    expect(registerButton()).toBeDisabled();
    expect(screen.getByText('You must agree to the Terms & Conditions.')).toBeInTheDocument();
    expect(screen.getAllByText('Agree to Terms & Conditions')).toHaveLength(1);
  });

  it('speaks French: the Sign Up title and the terms message', async () => {
    const { user } = renderApp('/auth/register', { lang: 'fr' });
    expect(await screen.findByRole('heading', { name: 'Inscription' })).toBeInTheDocument();
    const terms = screen.getByRole('checkbox', { name: "J'accepte les conditions générales" });
    await user.click(terms);
    await user.click(terms);
    expect(screen.getByText('Vous devez accepter les conditions générales.')).toBeInTheDocument();
  });

  it('shows the server error, or the default one', async () => {
    mockFetch({ 'POST /api/auth/register': json({ data: { errors: ['Email is already taken'] } }, 409) });
    const { user } = renderApp('/auth/register');
    await fillValid(user);
    await user.click(registerButton());
    expect(await screen.findByText('Oh snap!')).toBeInTheDocument();
    expect(screen.getByText('Email is already taken')).toBeInTheDocument();

    mockFetch({ 'POST /api/auth/register': json({}, 500) });
    await user.click(registerButton());
    expect(await screen.findByText('Something went wrong, please try again.')).toBeInTheDocument();
  });

  it('registers, says Hooray!, and after 500 ms goes on to the dashboard with the new session', async () => {
    const token = fakeJwt();
    const api = mockFetch({
      'POST /api/auth/register': json({
        token,
        data: { messages: ['You have been successfully registered.'] },
      }),
      'GET /api/user/': json(makeUser({ username: 'robin', name: 'Robin Fuel', agent: null })),
    });
    const { user, location } = renderApp('/auth/register');
    await fillValid(user);
    await user.click(registerButton());
    expect(await screen.findByText('Hooray!')).toBeInTheDocument();
    expect(screen.getByText('You have been successfully registered.')).toBeInTheDocument();
    expect(location.current.pathname).toBe('/auth/register');
    expect(api.find('POST', '/api/auth/register')[0].body).toEqual({
      fullName: 'Robin Fuel',
      email: 'robin@example.com',
      password: 'secret1',
      confirmPassword: 'secret1',
      terms: true,
    });
    await waitFor(() => expect(location.current.pathname).toBe('/agent/dashboard'));
    expect(localStorage.getItem('auth_app_token')).toBe(token);
  });
});
