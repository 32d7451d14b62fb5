import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories.ts';
import { json, mockFetch } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import {
  BoardTemperatureWidget,
  HumidityWidget,
  InternalTemperatureWidget,
} from './components/environment-widget.tsx';

describe('Environment widgets', () => {
  it('show their reading, unit and terminal id from one shared request, with wrapping arrows', async () => {
    const fetch = mockFetch({
      'GET /api/site/5/terminals/environment/': json([
        {
          temperature_main_board: 41.26,
          temperature_inside_cabinet: 23,
          humidity_inside_cabinet: 55,
          terminal: { terminal_id: 'T1' },
        },
        {
          temperature_main_board: null,
          temperature_inside_cabinet: 19.5,
          humidity_inside_cabinet: 61,
          terminal: { terminal_id: 'T2' },
        },
      ]),
    });
    const { user } = renderWithProviders(
      <>
        <BoardTemperatureWidget scope={{ kind: 'site', id: 5 }} />
        <HumidityWidget scope={{ kind: 'site', id: 5 }} />
        <InternalTemperatureWidget scope={{ kind: 'site', id: 5 }} />
      </>,
      { user: makeUser() },
    );
    const board = await screen.findByTestId('board-temperature');
    await within(board).findByText('T1');
    expect(within(board).getByTestId('reading')).toHaveTextContent('41.3°C');
    expect(within(screen.getByTestId('humidity')).getByTestId('reading')).toHaveTextContent('55%');
    expect(within(screen.getByTestId('internal-temperature')).getByTestId('reading')).toHaveTextContent(
      '23°C',
    );
    expect(fetch.find('GET', '/api/site/5/terminals/environment/')).toHaveLength(1);

    await user.click(within(board).getByRole('button', { name: 'Previous terminal' }));
    expect(within(board).getByTestId('terminal-id')).toHaveTextContent('T2');
    expect(within(board).getByTestId('reading')).toHaveTextContent('-');
    await user.click(within(board).getByRole('button', { name: 'Next terminal' }));
    expect(within(board).getByTestId('terminal-id')).toHaveTextContent('T1');
    expect(within(board).getByRole('link', { name: 'Environment log' })).toHaveAttribute(
      'href',
      '/site/5/terminal/environment/log',
    );
  });
});
