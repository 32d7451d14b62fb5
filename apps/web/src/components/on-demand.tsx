import {
  cloneElement,
  type ReactElement,
  type ReactNode,
  type Ref,
  type RefCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useState,
  useSyncExternalStore,
} from 'react';

/**
 * Code a screen needs only once a popover, menu, tooltip or modal opens: fetched on first use (or when the
 * pointer or focus comes near), so the floating-ui, focus-trap and scroll-lock code stays off the first load.
 * One per module: every component using it shares the download.
 */
export interface OnDemand<T> {
  /** Starts the download (once; again after a failure) and resolves with the module. */
  load(): Promise<T>;
  /** The module once loaded. */
  current(): T | undefined;
  subscribe(listener: () => void): () => void;
}

export function onDemand<T>(importer: () => Promise<T>): OnDemand<T> {
  let loaded: T | undefined;
  let pending: Promise<T> | undefined;
  const listeners = new Set<() => void>();
  return {
    load() {
      pending ??= importer().then(
        (m) => {
          loaded = m;
          for (const listener of listeners) listener();
          return m;
        },
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      );
      return pending;
    },
    current: () => loaded,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Starts a download without waiting for it (pointer or focus near the control that will need it). */
export function preload(module: OnDemand<unknown>): void {
  module.load().catch(() => undefined);
}

/** The module, once loaded; asks for it as soon as `wanted` is true. */
export function useOnDemand<T>(module: OnDemand<T>, wanted: boolean): T | undefined {
  const loaded = useSyncExternalStore(module.subscribe, module.current, module.current);
  useEffect(() => {
    if (wanted && !loaded) preload(module);
  }, [wanted, loaded, module]);
  return loaded;
}

/** What a fetched popover or menu gets from the control that opens it (`useOnDemandToggle`). */
export interface AnchoredProps {
  /** The id of the control; the dropdown is `${id}-dropdown`. */
  id: string;
  /** The control, already on the page: the dropdown opens under it. */
  target: HTMLElement | null;
  opened: boolean;
  onChange: (opened: boolean) => void;
}

/**
 * A button that opens a popover or menu fetched on demand: its open state, the module once loaded, the
 * props of the button (what Mantine's Target would set, plus fetching the code when the pointer or focus
 * comes near) and the props to hand the fetched dropdown.
 */
export function useOnDemandToggle<T>(module: OnDemand<T>, popup: 'dialog' | 'menu') {
  const [opened, setOpened] = useState(false);
  const [element, setElement] = useState<HTMLElement | null>(null);
  const id = useId();
  const loaded = useOnDemand(module, opened);
  const warm = () => preload(module);
  return {
    loaded,
    opened,
    setOpened,
    button: {
      ref: setElement,
      id,
      'aria-haspopup': popup,
      'aria-expanded': opened,
      'aria-controls': opened && loaded ? `${id}-dropdown` : undefined,
      onClick: () => setOpened((o) => !o),
      onPointerEnter: warm,
      onFocus: warm,
    },
    anchored: { id, target: element, opened, onChange: setOpened } satisfies AnchoredProps,
  };
}

/**
 * `opened`, held back for the first commit of a component that was just fetched: Mantine's popovers and
 * modals note the focused element (to give focus back on close) when `opened` turns true, not when they
 * mount opened.
 */
export function useOpenAfterMount(opened: boolean): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return opened && mounted;
}

function assignRef<T>(ref: Ref<T> | undefined, value: T | null): void | (() => void) {
  if (typeof ref === 'function') return (ref as RefCallback<T>)(value) ?? undefined;
  if (ref) (ref as { current: T | null }).current = value;
}

/**
 * The target of a Mantine Popover, Menu or Tooltip that was fetched after its control was on the page: it
 * hands the existing element to the floating code instead of rendering one, so the control is never
 * replaced (it keeps focus, hover and its place in the Tab order).
 */
export function ElementTarget({ element, ref }: { element: HTMLElement | null; ref?: Ref<HTMLElement> }) {
  useLayoutEffect(() => {
    const cleanup = assignRef(ref, element);
    return () => {
      if (cleanup) cleanup();
      else assignRef(ref, null);
    };
  }, [ref, element]);
  return null;
}

const tooltipModule = onDemand(() => import('./anchored-tooltip.tsx'));

export interface DeferredTooltipProps {
  label: ReactNode;
  multiline?: boolean;
  maw?: number;
  withArrow?: boolean;
  withinPortal?: boolean;
  /** One element that accepts a ref and mouse handlers. */
  children: ReactElement<{
    ref?: Ref<HTMLElement>;
    onMouseEnter?: (event: React.MouseEvent) => void;
    onMouseLeave?: (event: React.MouseEvent) => void;
  }>;
}

/**
 * A Mantine Tooltip shown on hover, like `<Tooltip>`, whose floating code is fetched when the pointer first
 * comes over the element.
 */
export function DeferredTooltip({ children, ...tooltip }: DeferredTooltipProps) {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [hovered, setHovered] = useState(false);
  const loaded = useOnDemand(tooltipModule, hovered);
  const child = children.props;
  return (
    <>
      {cloneElement(children, {
        ref: setElement,
        onMouseEnter: (event: React.MouseEvent) => {
          setHovered(true);
          child.onMouseEnter?.(event);
        },
        onMouseLeave: (event: React.MouseEvent) => {
          setHovered(false);
          child.onMouseLeave?.(event);
        },
      })}
      {loaded && <loaded.AnchoredTooltip {...tooltip} element={element} opened={hovered} />}
    </>
  );
}
