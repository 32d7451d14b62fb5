import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../testing/factories.ts';
import { json, mockFetch } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { LocalTimeWidget, zoneClock } from './components/local-time-widget.tsx';

const zones = [
  { title: 'London', area: 'Europe', tz_title: 'GMT/BST', tz: 0, iana: 'Europe/London' },
  { title: 'New York', area: 'America', tz_title: 'EST/EDT', tz: -5, iana: 'America/New_York' },
  { title: 'Tokyo', area: 'Asia', tz_title: 'JST', tz: 9, iana: 'Asia/Tokyo' },
];

afterEach(() => vi.useRealTimers());

describe('zoneClock', () => {
  it('follows daylight saving through the IANA zone', () => {
    expect(zoneClock(zones[0], new Date('2024-01-15T12:00:00Z')).time).toBe('12:00:00');
    expect(zoneClock(zones[0], new Date('2024-07-15T12:00:00Z'))).toEqual({ time: '13:00:00', offset: 1 });
    expect(zoneClock(zones[1], new Date('2024-07-15T12:00:00Z')).time).toBe('08:00:00');
  });
  it('falls back to the fixed offset for an unknown zone name', () => {
    expect(
      zoneClock({ title: 'X', tz: 5.5, iana: 'Nowhere/Else' }, new Date('2024-07-15T12:00:00Z')).time,
    ).toBe('17:30:00');
  });
});

describe('Local time widget', () => {
  const title = () => screen.getByTestId('zone-title').textContent;

  it('starts at pos mod count and cycles circularly both ways', async () => {
    mockFetch({ 'GET /api/agent/7/time/zones/': json(zones) });
    const { user } = renderWithProviders(<LocalTimeWidget scope={{ kind: 'agent', id: 7 }} pos={5} />, {
      user: makeUser(),
    });
    await screen.findByRole('timer');
    expect(title()).toBe('Tokyo'); // 5 mod 3 = 2
    await user.click(screen.getByRole('button', { name: 'Next time zone' }));
    expect(title()).toBe('London');
    await user.click(screen.getByRole('button', { name: 'Previous time zone' }));
    expect(title()).toBe('Tokyo');
    await user.click(screen.getByRole('button', { name: 'Previous time zone' }));
    expect(title()).toBe('New York');
  });

  it('starts at the first zone when pos is 0 or missing', async () => {
    mockFetch({ 'GET /api/company/11/time/zones/': json(zones) });
    const { user } = renderWithProviders(<LocalTimeWidget scope={{ kind: 'company', id: 11 }} />, {
      user: makeUser(),
    });
    await screen.findByRole('timer');
    expect(title()).toBe('London');
    await user.click(screen.getByRole('button', { name: 'Previous time zone' }));
    expect(title()).toBe('Tokyo');
  });

  it('ticks every second, HH:mm:ss, across a daylight-saving change', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    // 31 March 2024, 00:59:58 UTC: London clocks go from 00:59:59 GMT to 02:00:00 BST.
    vi.setSystemTime(new Date('2024-03-31T00:59:58Z'));
    mockFetch({ 'GET /api/agent/7/time/zones/': json(zones) });
    renderWithProviders(<LocalTimeWidget scope={{ kind: 'agent', id: 7 }} />, { user: makeUser() });
    const clock = await screen.findByRole('timer');
    expect(clock).toHaveTextContent('00:59:58');
    act(() => vi.advanceTimersByTime(1000));
    expect(clock).toHaveTextContent('00:59:59');
    act(() => vi.advanceTimersByTime(1000));
    expect(clock).toHaveTextContent('02:00:00');
    expect(screen.getByText(/UTC\+1/)).toBeInTheDocument();
  });

  it('says so when there are no zones', async () => {
    mockFetch({ 'GET /api/agent/7/time/zones/': json([]) });
    renderWithProviders(<LocalTimeWidget scope={{ kind: 'agent', id: 7 }} />, { user: makeUser() });
    expect(await screen.findByText('No time zones')).toBeInTheDocument();
  });
});
