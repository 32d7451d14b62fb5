import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/api-client.ts';
import { renderWithProviders } from '../testing/render.tsx';
import { WidgetCard } from './widget-card.tsx';

function Boom(): never {
  throw new Error('kaput');
}

describe('WidgetCard', () => {
  it('opens the info modal with translated title, description and a Close button', async () => {
    const { user } = renderWithProviders(
      <WidgetCard title="Alerts" info={{ title: 'About alerts', description: 'The latest events.' }}>
        rows
      </WidgetCard>,
    );
    const card = screen.getByRole('region', { name: 'Alerts' });
    await user.click(within(card).getByRole('button', { name: 'About Alerts' }));
    const dialog = await screen.findByRole('dialog', { name: 'About alerts' });
    expect(within(dialog).getByText('The latest events.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog', { name: 'About alerts' })).not.toBeInTheDocument();
  });

  it('shows loading, empty and error states instead of the content', async () => {
    const onRetry = vi.fn();
    const { rerender, user } = renderWithProviders(
      <WidgetCard title="Alerts" loading>
        rows
      </WidgetCard>,
    );
    expect(screen.getByRole('status', { name: 'Loading...' })).toBeInTheDocument();
    expect(screen.queryByText('rows')).not.toBeInTheDocument();
    rerender(
      <WidgetCard title="Alerts" empty emptyMessage="No events">
        rows
      </WidgetCard>,
    );
    expect(screen.getByText('No events')).toBeInTheDocument();
    rerender(
      <WidgetCard
        title="Alerts"
        error={new ApiError({ status: 503, kind: 'http', errors: ['down'] })}
        onRetry={onRetry}
      >
        rows
      </WidgetCard>,
    );
    expect(screen.getByText('This widget could not load its data.')).toBeInTheDocument();
    expect(screen.getByText('down')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('contains a crash of its content: the rest of the page stays', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithProviders(
      <>
        <WidgetCard title="Broken">
          <Boom />
        </WidgetCard>
        <WidgetCard title="Fine">still here</WidgetCard>
      </>,
    );
    expect(
      within(screen.getByRole('region', { name: 'Broken' })).getByText('This widget stopped working.'),
    ).toBeInTheDocument();
    expect(screen.getByText('still here')).toBeInTheDocument();
  });
});
