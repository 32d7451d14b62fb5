import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../testing/render.tsx';
import { AccordionGroup } from './accordion-group.tsx';

describe('AccordionGroup', () => {
  it('keeps one panel open at a time; clicking the open panel closes it', async () => {
    const { user } = renderWithProviders(
      <AccordionGroup
        panels={[
          { value: 'a', title: 'Alpha', content: 'alpha body' },
          { value: 'b', title: 'Beta', content: 'beta body' },
          { value: 'c', title: 'Gamma', content: 'gamma body' },
        ]}
      />,
    );
    const control = (name: string) => screen.getByRole('button', { name });
    const expanded = () =>
      ['Alpha', 'Beta', 'Gamma'].filter((n) => control(n).getAttribute('aria-expanded') === 'true');
    expect(expanded()).toEqual([]);
    await user.click(control('Alpha'));
    expect(expanded()).toEqual(['Alpha']);
    await user.click(control('Beta'));
    expect(expanded()).toEqual(['Beta']);
    await user.click(control('Beta'));
    expect(expanded()).toEqual([]);
    await user.click(control('Gamma'));
    await user.click(control('Alpha'));
    expect(expanded()).toEqual(['Alpha']);
  });
});
