import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventually, journey, type Page, shot } from '../src/journey.ts';

/**
 * API keys from the profile page: a read-only key is created, its token shown once and copied from there, the
 * key listed without it; then another system uses the token: it reads the API and is refused a write.
 */

const keysJourney = journey();
const { signedIn } = keysJourney;

async function openProfile(p: Page) {
  await p.goto(keysJourney.url('/profile'));
  await p.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
}

describe('API keys', () => {
  it('the profile creates a read-only key shown once; the key reads the API and is refused a write', async () => {
    const p = await signedIn('company');
    await openProfile(p);
    const section = p.getByRole('region', { name: 'API keys' });
    await section.getByText('You have no API keys yet.').waitFor();
    await section.getByRole('button', { name: 'New API key' }).click();

    const dialog = p.getByRole('dialog', { name: 'New API key' });
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('Stock system');
    assert.equal(await dialog.getByRole('checkbox', { name: /Read-only/ }).isChecked(), true);
    await dialog.getByRole('combobox', { name: 'Expires' }).selectOption({ label: 'In 30 days' });
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const shown = p.getByRole('dialog', { name: 'API key “Stock system” created' });
    await shown.getByText('This key is shown only once').waitFor();
    const token = await shown.getByRole('textbox', { name: 'Your new API key' }).inputValue();
    assert.match(token, /^fck_[A-Za-z0-9_-]{43}$/);
    await shown.getByRole('button', { name: 'Copy key' }).waitFor();
    await shot(p, 'api-keys-created', 'view');
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'hidden' });

    const row = section.getByRole('row', { name: /Stock system/ });
    await row.getByText(`${token.slice(0, 12)}…`).waitFor();
    await row.getByText('Read-only').waitFor();
    assert.equal(await p.getByText(token).count(), 0, 'the token is not shown again');
    assert.equal(await row.getByText('Never').count(), 1, 'never used yet');
    await shot(p, 'api-keys-listed');

    const base = keysJourney.server.url;
    const me = await fetch(`${base}/api/user/`, { headers: { Authorization: `ApiKey ${token}` } });
    assert.equal(me.status, 200);
    assert.equal(((await me.json()) as { username: string }).username, 'company');
    const write = await fetch(`${base}/api/user/notifications/`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email_min_severity: 'major' }),
    });
    assert.equal(write.status, 403);
    const post = await fetch(`${base}/api/zendesk/ticket/`, {
      method: 'POST',
      headers: { Authorization: `ApiKey ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'From a key', body: 'Refused' }),
    });
    assert.equal(post.status, 403);

    // After a use, the list says when.
    await eventually('the last use listed', async () => {
      await p.reload();
      await row.waitFor();
      return (await row.getByText('Never').count()) === 0 ? true : undefined;
    });

    await row.getByRole('button', { name: 'Delete API key Stock system' }).click();
    const confirm = p.getByRole('dialog', { name: 'Delete API key “Stock system”?' });
    await confirm.getByRole('button', { name: 'Delete key' }).click();
    await section.getByText('You have no API keys yet.').waitFor();
    const after = await fetch(`${base}/api/user/`, { headers: { Authorization: `ApiKey ${token}` } });
    assert.equal(after.status, 401);
    await p.context().close();
  });
});
