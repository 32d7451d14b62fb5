import type { ComponentType, LazyExoticComponent } from 'react';
import { lazyPreloaded } from '../../../../lib/preloadable.ts';
import type { Scope } from '../../../../lib/scope.ts';
import type { Board as BoardName, WidgetDescriptor, WidgetProps } from '../../../../lib/widget-descriptor.ts';
import { boardLayout, widgetCode } from '../../../../widgets/registry.ts';
import { Cell, DashboardGrid } from './dashboard-grid.tsx';

type View = LazyExoticComponent<ComponentType<WidgetProps>>;
const views = new Map<WidgetDescriptor, View>();

/** A widget's component, rendered at once when its code is here (loaded ahead by app/boot), else once it is. */
function viewOf(widget: WidgetDescriptor): View {
  let view = views.get(widget);
  if (!view) {
    const code = widgetCode(widget);
    let module: { default: ComponentType<WidgetProps> } | undefined;
    const load = Object.assign(() => code().then((m) => ({ default: m.Widget })), {
      loaded: () => {
        const m = code.loaded();
        if (m && !module) module = { default: m.Widget };
        return module;
      },
    });
    view = lazyPreloaded(load);
    views.set(widget, view);
  }
  return view;
}

/**
 * A dashboard's widgets, laid out from their descriptors (widgets/<name>/widget.ts, `boards`): in their order,
 * each in its cell. A widget of the first view that renders at once (`firstView: 'render'`) gets a plain cell;
 * every other one renders when its cell nears the viewport, and one outside the first view not before the first
 * view's reads have been drawn.
 */
export function Board({ board, scope }: { board: BoardName; scope: Scope }) {
  return (
    <DashboardGrid>
      {boardLayout(board).map(({ widget, place }) => {
        const View = viewOf(widget);
        return (
          <Cell
            key={widget.id}
            span={place.span}
            rows={place.rows}
            lazy={place.firstView !== 'render'}
            afterFirstView={!place.firstView}
          >
            <View scope={scope} size2X={place.size2X} />
          </Cell>
        );
      })}
    </DashboardGrid>
  );
}
