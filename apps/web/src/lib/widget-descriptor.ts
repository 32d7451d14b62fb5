import type { LiveChangeKind } from '@forecourt/contract/live';
import type { LogKindKey } from '@forecourt/contract/log-paths';
import type { ScopeKind } from '@forecourt/contract/scope';
import type { FetchQueryOptions } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import type { QueryRoot } from './api/query-keys.ts';
import type { Scope } from './scope.ts';

/** The dashboards a widget can sit on, named after the scope they show. */
export const BOARDS = ['agent', 'company', 'site'] as const;
export type Board = (typeof BOARDS)[number];

/** The scope each board shows: an agent's and a company's board show fleet scopes, a site's board one site. */
export type BoardScope<B extends Board> = Scope<B>;

/** What a dashboard hands every widget it lays out. */
export interface WidgetProps<S extends Scope = Scope> {
  scope: S;
  /** Double height (the cell spans two rows). */
  size2X?: boolean;
}

/** A query a widget asks for in a dashboard's first view: one of the `queryOptions` factories' own options. */
// biome-ignore lint/suspicious/noExplicitAny: any query's options (their data types differ by factory)
export type FirstRead = FetchQueryOptions<any, any, any, any>;

/** What a widget's loader hands over: its component and, for a first-view widget, the reads it paints with. */
export interface WidgetModule<S extends Scope = Scope> {
  Widget: ComponentType<WidgetProps<S>>;
  /** The widget's first reads, asked for by the boot (app/boot) as soon as its code is here. */
  firstReads?: (scope: S) => readonly FirstRead[];
}

/** Where a widget sits on one board. */
export interface Placement {
  /** Its place on the board: cells flow in ascending order. */
  order: number;
  /** Columns to span where there is room. @default 1 */
  span?: 1 | 2 | 3;
  /** Rows to span; two rows hand the widget `size2X`. @default 1 */
  rows?: 1 | 2;
  /** Give the widget `size2X` (its double-height layout). @default false */
  size2X?: boolean;
  /**
   * Part of the board's first view: `render` is rendered at once and its code comes with the first view's chunk
   * (the map); `code` comes with that chunk too but is rendered once its cell nears the viewport. Otherwise the
   * widget's code is fetched when its cell nears the viewport (below the fold on every screen).
   */
  firstView?: 'render' | 'code';
}

/** A query root the widget reads, the scope kinds its keys are made of, and the changes that make it stale. */
export interface LiveRead {
  root: QueryRoot;
  /** The scope kinds this resource is keyed by (`[root, kind, id, ...]`); none: the whole resource. */
  scopes: readonly ScopeKind[];
  /** The kinds of change on the live stream that alter it. */
  on: readonly LiveChangeKind[];
}

/**
 * One dashboard widget: everything the console derives its dashboards from (the boards' layouts, which code comes
 * with a first view, the live stream's change → query table). One per widget, in the widget's folder
 * (`widgets/<name>/widget.ts`, docs/adding-a-widget.md); widgets/registry.ts finds them all.
 */
export interface WidgetDescriptor<S extends Scope = Scope> {
  /** Unique over the console; also the cell's `data-widget`. */
  id: string;
  /** The widget's title, an i18n key. */
  title: string;
  /** Its code: a dynamic import of its component module. */
  load: () => Promise<WidgetModule<S>>;
  /** The query roots it reads and the changes each one follows. */
  reads: readonly LiveRead[];
  /** The log screen its card links to, and the changes that add to that log. */
  log?: { kind: LogKindKey; on: readonly LiveChangeKind[] };
  /** The boards it sits on, and where. */
  boards: Partial<Record<S['kind'] & Board, Placement>>;
}

/** A descriptor typed for its scope; the registry keeps them as plain `WidgetDescriptor`s. */
export function defineWidget<S extends Scope>(descriptor: WidgetDescriptor<S>): WidgetDescriptor {
  return descriptor as unknown as WidgetDescriptor;
}

/** The scope kinds of every resource, of fleet-wide ones and of one site's. */
export const ALL_SCOPES: readonly ScopeKind[] = ['agent', 'company', 'site'];
export const FLEET_SCOPES: readonly ScopeKind[] = ['agent', 'company'];
export const SITE_SCOPES: readonly ScopeKind[] = ['site'];
