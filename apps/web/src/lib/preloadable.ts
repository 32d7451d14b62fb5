import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/** A module loader that loads once and remembers the module, so code can tell whether it is here already. */
export interface Preloadable<M> {
  (): Promise<M>;
  /** The module once it has loaded; undefined before. */
  loaded(): M | undefined;
}

export function preloadable<M>(load: () => Promise<M>): Preloadable<M> {
  let promise: Promise<M> | undefined;
  let module: M | undefined;
  const get = () => {
    promise ??= load().then(
      (m) => {
        module = m;
        return m;
      },
      (err: unknown) => {
        // A failed load (a network error) is tried again next time.
        promise = undefined;
        throw err;
      },
    );
    return promise;
  };
  return Object.assign(get, { loaded: () => module });
}

/**
 * `React.lazy` of a preloadable module that renders at once when the module is already loaded. React's own lazy
 * always suspends on its first render (a promise, even of a module that is here, answers in a later microtask):
 * its Suspense boundary shows its fallback and, once the module answers, React holds the content back until
 * 300 ms after that fallback appeared (its throttling of revealed fallbacks). A module loaded ahead (the signed-in
 * first view, app/boot/start.ts) is handed over synchronously instead: no fallback, no wait.
 */
export function lazyPreloaded<P extends object>(
  load: Preloadable<{ default: ComponentType<P> }>,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => {
    const module = load.loaded();
    if (!module) return load();
    // A thenable React's lazy reads synchronously: it calls `then` and finds the module resolved.
    // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose, answered synchronously (see above)
    const here = { then: (resolve: (m: { default: ComponentType<P> }) => void) => resolve(module) };
    return here as unknown as Promise<{ default: ComponentType<P> }>;
  });
}
