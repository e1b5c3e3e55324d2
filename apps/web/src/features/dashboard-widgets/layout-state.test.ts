import { DEFAULT_DASHBOARD, DASHBOARD_MAX_PAGES, type DashboardLayout } from '@edgekeep/contract/schemas/dashboard';
import { describe, expect, it } from 'vitest';
import { addPage, addWidget, isDirty, layoutFileText, parseLayoutFile, placeWidgets, removePage, removeWidget } from './layout-state';

const base: DashboardLayout = structuredClone(DEFAULT_DASHBOARD);

describe('dashboard layout editing', () => {
  it('is clean until something changes, and clean again when a change is undone', () => {
    const copy = structuredClone(base);
    expect(isDirty(copy, base)).toBe(false);
    const added = addWidget(copy, 'overview', 'cacheChart');
    expect(isDirty(added, base)).toBe(true);
    const last = added.pages[0].widgets.at(-1)!;
    expect(isDirty(removeWidget(added, 'overview', last.i), base)).toBe(false);
    expect(placeWidgets(base, 'overview', base.pages[0].widgets)).toBe(base);
  });

  it('adds a widget below the others with a fresh key and the spec interval', () => {
    const page = addWidget(base, 'overview', 'statusCard').pages[0];
    const bottom = Math.max(...base.pages[0].widgets.map((w) => w.y + w.h));
    expect(page.widgets.at(-1)).toEqual({ i: expect.stringMatching(/^w\d+$/), type: 'statusCard', x: 0, y: bottom, w: 2, h: 3, options: { range: 'last24Hours', reportInterval: 15 } });
    expect(new Set(page.widgets.map((w) => w.i)).size).toBe(page.widgets.length);
  });

  it('adds pages blank or copied, with unique ids, and removes them', () => {
    const blank = addPage({ layout: base, name: 'Empty' });
    expect(blank.layout.pages[1]).toEqual({ id: blank.id, name: 'Empty', widgets: [] });
    const copy = addPage({ layout: blank.layout, name: 'Copy', copyOf: 'overview' });
    expect(copy.id).not.toBe(blank.id);
    expect(copy.layout.pages[2].widgets).toEqual(base.pages[0].widgets);
    expect(copy.layout.pages[2].widgets).not.toBe(base.pages[0].widgets);
    expect(removePage(copy.layout, blank.id).pages.map((p) => p.id)).toEqual(['overview', copy.id]);
  });

  it('keeps widgets inside the columns when the grid moves them', () => {
    const i = base.pages[0].widgets[0].i;
    const moved = placeWidgets(base, 'overview', [{ i, x: 11, y: 3, w: 4, h: 2 }]).pages[0].widgets[0];
    expect(moved).toMatchObject({ x: 8, y: 3, w: 4 });
  });
});

describe('dashboard files', () => {
  it('round-trips an exported layout', () => {
    expect(parseLayoutFile(layoutFileText(base))).toEqual({ layout: base });
  });

  it('refuses text that is not JSON, and JSON the schema refuses, naming the fields', () => {
    expect(parseLayoutFile('{pages:')).toEqual({ error: 'json', fields: [] });
    const bad = structuredClone(base) as { pages: { widgets: { type: string; w: number }[] }[] };
    bad.pages[0].widgets[0].type = 'coffeeCard';
    bad.pages[0].widgets[1].w = 40;
    expect(parseLayoutFile(JSON.stringify(bad))).toEqual({ error: 'schema', fields: ['pages.0.widgets.0.type', 'pages.0.widgets.1.w'] });
    const many = { pages: Array.from({ length: DASHBOARD_MAX_PAGES + 1 }, (_, n) => ({ id: `p${n}`, name: 'P', widgets: [] })) };
    expect(parseLayoutFile(JSON.stringify(many))).toMatchObject({ error: 'schema', fields: ['pages'] });
    expect(parseLayoutFile('[]')).toMatchObject({ error: 'schema' });
  });
});
