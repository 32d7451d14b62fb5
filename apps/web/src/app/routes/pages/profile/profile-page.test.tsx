import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../../../lib/auth/session.ts';
import { makeUser } from '../../../../testing/factories.ts';
import { fakeJwt, json, mockFetch } from '../../../../testing/fetch-mock.ts';
import { renderApp, renderWithProviders } from '../../../../testing/render.tsx';
import ProfilePage from './profile-page.tsx';

const user = makeUser({
  name: 'Sam Site',
  email: 'site@forecourt.local',
  username: 'site',
  avatar: '/api/user/avatar/1/',
});

function renderProfile() {
  return renderWithProviders(<ProfilePage />, { user });
}

const profileForm = () => screen.getByRole('form', { name: 'Edit profile' });
const passwordForm = () => screen.getByRole('form', { name: 'Change password' });

describe('profile page', () => {
  it('shows name, email and the avatar served from the API base', async () => {
    mockFetch({});
    renderProfile();
    expect(screen.getByRole('heading', { level: 1, name: 'Profile' })).toBeInTheDocument();
    expect(screen.getByTestId('profile-name')).toHaveTextContent('Sam Site');
    expect(screen.getByTestId('profile-email')).toHaveTextContent('site@forecourt.local');
    const img = screen.getByRole('img', { name: 'Avatar of Sam Site' });
    expect(img).toHaveAttribute('src', '/api/user/avatar/1/');
  });

  it('the profile form shows the validation messages word for word', async () => {
    mockFetch({});
    const { user: u } = renderProfile();
    const form = within(profileForm());
    await u.clear(form.getByLabelText('Full name'));
    await u.type(form.getByLabelText('Full name'), 'ab');
    await u.clear(form.getByLabelText('Email address'));
    await u.tab();
    expect(await form.findByText('Full name should contains from 4 to 50 characters')).toBeInTheDocument();
    expect(await form.findByText('Email is required!')).toBeInTheDocument();
    await u.type(form.getByLabelText('Email address'), 'not-an-email');
    expect(await form.findByText('Email should be the real one!')).toBeInTheDocument();
    expect(form.getByRole('button', { name: 'Save profile' })).toBeDisabled();
  });

  it('the password form shows the validation messages word for word', async () => {
    mockFetch({});
    const { user: u } = renderProfile();
    const form = within(passwordForm());
    const password = form.getByLabelText('New Password');
    const confirm = form.getByLabelText('Confirm Password');
    await u.type(form.getByLabelText(/^Current password/), 'demo1234');
    await u.click(password);
    await u.click(confirm);
    await u.tab();
    expect(await form.findByText('Password is required!')).toBeInTheDocument();
    expect(await form.findByText('Password confirmation is required!')).toBeInTheDocument();
    await u.type(password, 'abc');
    expect(await form.findByText('Password should contains from 4 to 50 characters')).toBeInTheDocument();
    await u.type(password, 'defg');
    await u.type(confirm, 'abcdefx');
    await u.tab();
    expect(await form.findByText('Password does not match the confirm password.')).toBeInTheDocument();
    expect(form.getByRole('button', { name: 'Change password' })).toBeDisabled();
    await u.clear(confirm);
    await u.type(confirm, 'abcdefg');
    await waitFor(() => expect(form.queryByText('Password does not match the confirm password.')).toBeNull());
    expect(form.getByRole('button', { name: 'Change password' })).toBeEnabled();
  });

  it('a successful update stores the new user and says so', async () => {
    const api = mockFetch({
      'POST /api/user/update/': (req) => json({ ...user, ...(req.body as object), avatar: user.avatar }),
    });
    const { user: u } = renderProfile();
    const form = within(profileForm());
    await u.clear(form.getByLabelText('Full name'));
    await u.type(form.getByLabelText('Full name'), 'Samantha Site');
    await u.clear(form.getByLabelText('Email address'));
    await u.type(form.getByLabelText('Email address'), 'samantha@forecourt.local');
    await u.type(form.getByLabelText(/^Current password/), 'demo1234');
    await u.click(form.getByRole('button', { name: 'Save profile' }));
    const hooray = await form.findByRole('status');
    expect(hooray).toHaveTextContent('Hooray!');
    expect(hooray).toHaveTextContent('Your profile has been successfully updated.');
    expect(api.find('POST', '/api/user/update/')[0]?.body).toEqual({
      name: 'Samantha Site',
      email: 'samantha@forecourt.local',
      current_password: 'demo1234',
    });
    expect(sessionStore.get().user?.name).toBe('Samantha Site');
    expect(screen.getByTestId('profile-name')).toHaveTextContent('Samantha Site');
  });

  it('a chosen picture is sent as a data URL and shown', async () => {
    const api = mockFetch({
      'POST /api/user/update/': () => json({ ...user, avatar: '/api/user/avatar/1/?v=2' }),
    });
    const { user: u, container } = renderProfile();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    await u.upload(input, new File([png], 'me.png', { type: 'image/png' }));
    const form = within(profileForm());
    await waitFor(() => expect(form.getByRole('button', { name: 'Save profile' })).toBeEnabled());
    await u.click(form.getByRole('button', { name: 'Save profile' }));
    await form.findByText('Your profile has been successfully updated.');
    const body = api.find('POST', '/api/user/update/')[0]?.body as { avatar: string };
    expect(body.avatar).toBe('data:image/png;base64,iVBORw0KGgoAAAAA');
    expect(sessionStore.get().user?.avatar).toBe('/api/user/avatar/1/?v=2');
  });

  it('a server refusal shows the Oh snap! alert with its message', async () => {
    mockFetch({
      'POST /api/user/update/': json(
        { data: { errors: ['A user with this email address already exists.'] } },
        409,
      ),
    });
    const { user: u } = renderProfile();
    const form = within(profileForm());
    await u.clear(form.getByLabelText('Email address'));
    await u.type(form.getByLabelText('Email address'), 'agent@forecourt.local');
    await u.type(form.getByLabelText(/^Current password/), 'demo1234');
    await u.click(form.getByRole('button', { name: 'Save profile' }));
    const alert = await form.findByRole('alert');
    expect(alert).toHaveTextContent('Oh snap!');
    expect(alert).toHaveTextContent('A user with this email address already exists.');
    expect(sessionStore.get().user?.email).toBe('site@forecourt.local');
  });

  it('a password change keeps the session on the fresh token and says so', async () => {
    const fresh = fakeJwt({ username: 'site', jti: 'fresh' });
    const api = mockFetch({
      'POST /api/user/change/password/': json({
        token: fresh,
        data: { messages: ['Your password has been successfully changed.'] },
      }),
    });
    const { user: u } = renderProfile();
    const form = within(passwordForm());
    await u.type(form.getByLabelText(/^Current password/), 'demo1234');
    await u.type(form.getByLabelText('New Password'), 'newpass1');
    await u.type(form.getByLabelText('Confirm Password'), 'newpass1');
    await u.click(form.getByRole('button', { name: 'Change password' }));
    expect(await form.findByText('Your password has been successfully changed.')).toBeInTheDocument();
    expect(api.find('POST', '/api/user/change/password/')[0]?.body).toEqual({
      current_password: 'demo1234',
      password: 'newpass1',
      confirmPassword: 'newpass1',
    });
    expect(sessionStore.get().token).toBe(fresh);
    expect(form.getByLabelText('New Password')).toHaveValue('');
  });

  it('asks for the current password before an email change, and never sends the change without it', async () => {
    const api = mockFetch({
      'POST /api/user/update/': (req) => json({ ...user, ...(req.body as object), avatar: user.avatar }),
    });
    const { user: u } = renderProfile();
    const form = within(profileForm());
    await u.clear(form.getByLabelText('Email address'));
    await u.type(form.getByLabelText('Email address'), 'sam@forecourt.local');
    await u.click(form.getByRole('button', { name: 'Save profile' }));
    expect(await form.findByText('Current password is required.')).toBeInTheDocument();
    expect(api.find('POST', '/api/user/update/')).toHaveLength(0);
    await u.type(form.getByLabelText(/^Current password/), 'demo1234');
    await u.click(form.getByRole('button', { name: 'Save profile' }));
    await form.findByText('Your profile has been successfully updated.');
    expect(api.find('POST', '/api/user/update/')[0]?.body).toMatchObject({ current_password: 'demo1234' });
    expect(form.getByLabelText(/^Current password/)).toHaveValue('');
  });

  it('the password form needs the current password', async () => {
    const api = mockFetch({});
    const { user: u } = renderProfile();
    const form = within(passwordForm());
    await u.type(form.getByLabelText('New Password'), 'newpass1');
    await u.type(form.getByLabelText('Confirm Password'), 'newpass1');
    await u.click(form.getByLabelText(/^Current password/));
    await u.tab();
    expect(await form.findByText('Current password is required.')).toBeInTheDocument();
    expect(form.getByRole('button', { name: 'Change password' })).toBeDisabled();
    expect(api.find('POST', '/api/user/change/password/')).toHaveLength(0);
  });

  it('is reachable at #/profile inside the app', async () => {
    mockFetch({});
    renderApp('/profile', { user });
    expect(await screen.findByRole('heading', { level: 1, name: 'Profile' })).toBeInTheDocument();
  });
});
