import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../testing/factories.ts';
import { json, mockFetch } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { Support } from './components/support.tsx';

beforeEach(() => {
  notifications.clean();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function openModal() {
  const view = renderWithProviders(<Support />, { user: makeUser() });
  await view.user.click(screen.getByRole('button', { name: /click here to contact support/i }));
  const dialog = await screen.findByRole('dialog', { name: 'New support ticket' });
  return { ...view, dialog };
}

describe('Support', () => {
  it('opens the ticket modal: subject input, body textarea of 5 rows, Close and Submit', async () => {
    mockFetch({});
    const { dialog, user } = await openModal();
    expect(within(dialog).getByRole('textbox', { name: 'Subject' }).tagName).toBe('INPUT');
    const body = within(dialog).getByRole('textbox', { name: 'Body' });
    expect(body.tagName).toBe('TEXTAREA');
    expect(body).toHaveAttribute('rows', '5');
    expect(within(dialog).getByRole('button', { name: 'Submit' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('checks the subject first, then the body; the error clears when both are there', async () => {
    const http = mockFetch({});
    const { dialog, user } = await openModal();
    const error = within(dialog).getByTestId('ticket-error');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(error).toHaveTextContent('Please enter a subject');
    expect(error).toHaveStyle({ color: 'var(--mantine-color-red-text)' });

    // A body alone still fails on the subject: it is checked first.
    await user.type(within(dialog).getByRole('textbox', { name: 'Body' }), 'The pumps do not answer');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(error).toHaveTextContent('Please enter a subject');

    await user.clear(within(dialog).getByRole('textbox', { name: 'Body' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Subject' }), 'Pumps');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(error).toHaveTextContent('Please describe the problem');

    await user.type(within(dialog).getByRole('textbox', { name: 'Body' }), 'x');
    expect(error).toHaveTextContent('');
    expect(http.calls).toHaveLength(0);
  });

  it('a stored ticket shows TICKET_CREATED_SUCCESFULLY and closes the modal', async () => {
    const http = mockFetch({
      'POST /api/zendesk/ticket/': json({ error: false, error_text: '', ticket_id: 3 }),
    });
    const { dialog, user } = await openModal();
    await user.type(within(dialog).getByRole('textbox', { name: 'Subject' }), 'Pump 3 stuck');
    await user.type(within(dialog).getByRole('textbox', { name: 'Body' }), 'It stays on.');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Your ticket has been created')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(http.find('POST', '/api/zendesk/ticket/')[0].body).toEqual({
      subject: 'Pump 3 stuck',
      body: 'It stays on.',
    });
  });

  it('an answer with error shows an error toast with error_text and keeps the modal open', async () => {
    mockFetch({
      'POST /api/zendesk/ticket/': json({ error: true, error_text: 'The help desk is unreachable' }),
    });
    const { dialog, user } = await openModal();
    await user.type(within(dialog).getByRole('textbox', { name: 'Subject' }), 'Help');
    await user.type(within(dialog).getByRole('textbox', { name: 'Body' }), 'Please');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('The help desk is unreachable')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'New support ticket' })).toBeInTheDocument();
    expect(screen.queryByText('Your ticket has been created')).not.toBeInTheDocument();
  });
});
