import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { journey, type Page, shot } from '../src/journey.ts';

/** The profile page: who is signed in, the profile form and the password change, end to end. */

const profilePage = journey();
const { signedIn } = profilePage;

/** Opens the profile page and waits for its heading. */
async function openProfile(p: Page, route = '#/profile') {
  await p.goto(`${profilePage.server.url}/${route}`);
  await p.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
}

describe('profile', () => {
  it('shows the user, updates the profile and changes the password end to end', async () => {
    const p = await signedIn('site');
    await openProfile(p);
    assert.equal(await p.getByTestId('profile-name').innerText(), 'Sam Site');
    assert.equal(await p.getByTestId('profile-email').innerText(), 'site@forecourt.local');
    await shot(p, 'profile-light');

    const profile = p.getByRole('form', { name: 'Edit profile' });
    await profile.getByLabel('Full name').fill('ab');
    await profile.getByLabel('Email address').click();
    await profile.getByText('Full name should contains from 4 to 50 characters').waitFor();
    await profile.getByLabel('Full name').fill('Samantha Site');
    await profile.getByLabel('Email address').fill('samantha@forecourt.local');
    // A new email address needs the current password: a stolen session alone cannot take the account.
    await profile.getByLabel(/^Current password/).fill('demo1234');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await profile.getByText('Your profile has been successfully updated.').waitFor();
    assert.equal(await p.getByTestId('profile-name').innerText(), 'Samantha Site');
    assert.equal(await p.getByTestId('profile-email').innerText(), 'samantha@forecourt.local');

    const password = p.getByRole('form', { name: 'Change password' });
    await password.getByLabel('New Password', { exact: true }).fill('ab');
    await password.getByLabel('Confirm Password', { exact: true }).click();
    await password.getByText('Password should contains from 4 to 50 characters').waitFor();
    await password.getByLabel('New Password', { exact: true }).fill('newpass1');
    await password.getByLabel('Confirm Password', { exact: true }).fill('newpass2');
    await password.getByLabel('New Password', { exact: true }).click();
    await password.getByText('Password does not match the confirm password.').waitFor();
    await password.getByLabel('Confirm Password', { exact: true }).fill('newpass1');
    await password.getByLabel(/^Current password/).fill('demo1234');
    await password.getByRole('button', { name: 'Change password' }).click();
    await password.getByText('Your password has been successfully changed.').waitFor();
    // The session goes on with the fresh token.
    await p.reload();
    await p.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    assert.equal(await p.getByTestId('profile-name').innerText(), 'Samantha Site');
    await p.context().close();

    // The new password signs in; the old one no longer does.
    const again = await signedIn('site', { password: 'newpass1' });
    await openProfile(again, 'profile');
    assert.equal(await again.getByTestId('profile-name').innerText(), 'Samantha Site');
    await again.context().close();
    const res = await fetch(`${profilePage.server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'site', password: 'demo1234' }),
    });
    assert.notEqual(res.status, 200);
  });

  it('screenshots: cosmic and 390px', async () => {
    for (const [name, opts] of [
      ['profile-cosmic', { dark: true }],
      ['profile-390', { width: 390 }],
    ] as const) {
      const p = await signedIn('agent', opts);
      await openProfile(p);
      await shot(p, name);
      await p.context().close();
    }
  });
});
