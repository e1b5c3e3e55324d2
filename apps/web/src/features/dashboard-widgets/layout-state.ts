import {
  DASHBOARD_COLS,
  dashboardLayout,
  WIDGET_REPORT_INTERVAL,
  type DashboardLayout,
  type DashboardPage,
  type Widget,
  type WidgetType,
} from '@edgekeep/contract/schemas/dashboard';

/** Whether the layout being edited differs from the one stored (what the unsaved-changes prompt asks about). */
export const isDirty = (edited: DashboardLayout, stored: DashboardLayout) => JSON.stringify(edited) !== JSON.stringify(stored);

const freeKey = (prefix: string, taken: string[]) => {
  for (let n = taken.length + 1; ; n++) if (!taken.includes(`${prefix}${n}`)) return `${prefix}${n}`;
};

/** A new page after the others: blank, or a copy of one (its widgets and their options). */
export function addPage({ layout, name, copyOf }: { layout: DashboardLayout; name: string; copyOf?: string }): { layout: DashboardLayout; id: string } {
  const id = freeKey('page-', layout.pages.map((p) => p.id));
  const source = layout.pages.find((p) => p.id === copyOf);
  const page: DashboardPage = { id, name, widgets: source ? structuredClone(source.widgets) : [] };
  return { layout: { pages: [...layout.pages, page] }, id };
}

export const removePage = (layout: DashboardLayout, id: string): DashboardLayout => ({ pages: layout.pages.filter((p) => p.id !== id) });

const changePage = (layout: DashboardLayout, id: string, change: (p: DashboardPage) => DashboardPage): DashboardLayout => ({
  pages: layout.pages.map((p) => (p.id === id ? change(p) : p)),
});

export const renamePage = (layout: DashboardLayout, id: string, name: string) => changePage(layout, id, (p) => ({ ...p, name }));

export const isChart = (type: WidgetType) => type.endsWith('Chart');

/** Adds a widget of a type below the page's others, at the type's usual size. */
export const addWidget = (layout: DashboardLayout, pageId: string, type: WidgetType) =>
  changePage(layout, pageId, (p) => {
    const y = Math.max(0, ...p.widgets.map((w) => w.y + w.h));
    const size = isChart(type) ? { w: 6, h: 6 } : { w: 2, h: 3 };
    const widget: Widget = { i: freeKey('w', p.widgets.map((w) => w.i)), type, x: 0, y, ...size, options: { range: 'last24Hours', reportInterval: WIDGET_REPORT_INTERVAL } };
    return { ...p, widgets: [...p.widgets, widget] };
  });

export const removeWidget = (layout: DashboardLayout, pageId: string, i: string) =>
  changePage(layout, pageId, (p) => ({ ...p, widgets: p.widgets.filter((w) => w.i !== i) }));

export const setWidgetOptions = (layout: DashboardLayout, pageId: string, i: string, options: Widget['options']) =>
  changePage(layout, pageId, (p) => ({ ...p, widgets: p.widgets.map((w) => (w.i === i ? { ...w, options } : w)) }));

type GridItem = { i: string; x: number; y: number; w: number; h: number };

/** The positions the grid reports after a drag or resize, kept within the columns. */
export function placeWidgets(layout: DashboardLayout, pageId: string, grid: readonly GridItem[]) {
  const next = changePage(layout, pageId, (p) => {
    const at = new Map(grid.map((g) => [g.i, g]));
    const widgets = p.widgets.map((w) => {
      const g = at.get(w.i);
      if (!g) return w;
      const width = Math.min(Math.max(1, g.w), DASHBOARD_COLS);
      return { ...w, x: Math.min(Math.max(0, g.x), DASHBOARD_COLS - width), y: Math.max(0, g.y), w: width, h: Math.max(1, g.h) };
    });
    return { ...p, widgets };
  });
  return isDirty(next, layout) ? next : layout;
}

export type ImportResult = { layout: DashboardLayout } | { error: 'json' | 'schema'; fields: string[] };

/** An exported file read back: JSON, then the same schema the API holds layouts to. */
export function parseLayoutFile(text: string): ImportResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { error: 'json', fields: [] };
  }
  const parsed = dashboardLayout.safeParse(raw);
  if (!parsed.success) return { error: 'schema', fields: [...new Set(parsed.error.issues.map((i) => i.path.join('.') || '(root)'))] };
  return { layout: parsed.data };
}

export const layoutFileText = (layout: DashboardLayout) => `${JSON.stringify({ pages: layout.pages }, null, 2)}\n`;
