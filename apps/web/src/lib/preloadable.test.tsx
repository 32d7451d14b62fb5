import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazyPreloaded, type Preloadable, preloadable } from './preloadable.ts';

const Page = () => <p>the page</p>;

/** Renders the lazy component of `load` inside a Suspense boundary whose fallback says "loading". */
function showLazy(load: Preloadable<{ default: typeof Page }>) {
  const Lazy = lazyPreloaded(load);
  render(
    <Suspense fallback={<p>loading</p>}>
      <Lazy />
    </Suspense>,
  );
}

describe('preloadable modules', () => {
  it('loads once, remembers the module, and loads again after a failure', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue({ default: Page });
    const page = preloadable(load);
    expect(page.loaded()).toBeUndefined();
    await expect(page()).rejects.toThrow('offline');
    expect(page.loaded()).toBeUndefined();
    const module = await page();
    expect(await page()).toBe(module);
    expect(page.loaded()).toBe(module);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('a lazy component of a module loaded ahead renders in the first commit, without its fallback', async () => {
    const page = preloadable(async () => ({ default: Page }));
    await page();
    showLazy(page);
    expect(screen.getByText('the page')).toBeInTheDocument();
    expect(screen.queryByText('loading')).toBeNull();
  });

  it('one whose module is not here yet shows the fallback, then the page', async () => {
    const page = preloadable(async () => ({ default: Page }));
    showLazy(page);
    expect(screen.getByText('loading')).toBeInTheDocument();
    expect(await screen.findByText('the page')).toBeInTheDocument();
  });
});
