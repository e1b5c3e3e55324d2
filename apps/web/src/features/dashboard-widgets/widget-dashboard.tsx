import { DEFAULT_DASHBOARD, dashboardLayout, type DashboardLayout, type Widget, type WidgetType } from '@edgekeep/contract/schemas/dashboard';
import { App, Card, Empty, Skeleton, Space, Tabs } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Layout } from 'react-grid-layout/legacy';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { saveText } from '../../lib/save-text';
import { EditToolbar, ViewToolbar } from './dashboard-toolbar';
import { addPage, addWidget, isDirty, layoutFileText, parseLayoutFile, placeWidgets, removePage, removeWidget, renamePage, setWidgetOptions } from './layout-state';
import { useDashboardLayout, useSaveDashboard, type DashboardTier } from './queries';
import { confirmDiscard, useUnsavedPrompt } from './use-unsaved-prompt';

const loadGrid = () => import('./dashboard-grid');
const DashboardGrid = lazy(loadGrid);
// The grid and the charts load while the layout is asked for, not after it arrives.
void loadGrid();

/**
 * The editable widget dashboard of the client (its users' sites) and the admin (every site): pages of cards and
 * charts, an edit mode that works on a draft until it is saved, and export, import, reset and delete.
 */
export default function WidgetDashboard({ tier }: { tier: DashboardTier }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const can = useCan();
  const canEdit = can(tier === 'admin' ? 'dashboard.view' : 'dashboard.edit');
  const stored = useDashboardLayout(tier);
  const save = useSaveDashboard(tier);
  const [draft, setDraft] = useState<DashboardLayout>();
  const [pageId, setPageId] = useState<string>();
  const saved: DashboardLayout = { pages: stored.data?.data.pages ?? [] };
  const layout = draft ?? saved;
  const dirty = draft !== undefined && isDirty(draft, saved);
  useUnsavedPrompt(dirty);
  if (stored.isLoading) return <Card><Skeleton active /></Card>;

  const page = layout.pages.find((p) => p.id === pageId) ?? layout.pages[0];
  const edit = (change: (l: DashboardLayout) => DashboardLayout) => setDraft(change(layout));
  const store = (next: DashboardLayout, done: 'dashboardWidgets.saved' | 'dashboardWidgets.resetDone' | 'dashboardWidgets.deleted') => {
    const checked = dashboardLayout.safeParse(next);
    if (!checked.success) return toast.error(t('dashboardWidgets.invalid', { fields: checked.error.issues.map((i) => i.path.join('.')).join(', ') }));
    // the promise, not mutate's callbacks: those run only while the screen's observer of the mutation is subscribed,
    // and a saved change must not go unconfirmed (a failure is shown by the query client)
    save.mutateAsync(checked.data).then(
      () => {
        setDraft(undefined);
        toast.success(t(done));
      },
      () => undefined,
    );
  };
  const confirm = (title: string, onOk: () => void) => modal.confirm({ title, okText: t('common.confirm'), cancelText: t('common.cancel'), onOk });
  const exit = () => (dirty ? confirmDiscard({ modal, t, onOk: () => setDraft(undefined) }) : setDraft(undefined));
  const importFile = async (file: File) => {
    const result = parseLayoutFile(await file.text());
    if ('error' in result) {
      return toast.error(result.error === 'json' ? t('dashboardWidgets.importNotJson') : t('dashboardWidgets.invalid', { fields: result.fields.join(', ') }));
    }
    setDraft(result.layout);
    setPageId(result.layout.pages[0]?.id);
    toast.info(t('dashboardWidgets.imported'));
  };
  const newPage = (copy: boolean) => {
    const made = addPage({ layout, name: copy && page ? `${page.name} (2)`.slice(0, 64) : t('dashboardWidgets.newPageName'), copyOf: copy ? page?.id : undefined });
    setDraft(made.layout);
    setPageId(made.id);
  };

  const toolbar = draft ? (
    <EditToolbar
      pageName={page?.name}
      dirty={dirty}
      saving={save.isPending}
      onAddWidget={(type: WidgetType) => page && edit((l) => addWidget(l, page.id, type))}
      onAddPage={newPage}
      onRemovePage={() => page && confirm(t('dashboardWidgets.removePageConfirm', { name: page.name }), () => edit((l) => removePage(l, page.id)))}
      onRename={(name) => page && edit((l) => renamePage(l, page.id, name))}
      onSave={() => store(draft, 'dashboardWidgets.saved')}
      onExit={exit}
    />
  ) : (
    <ViewToolbar
      canEdit={canEdit}
      onEdit={() => setDraft(structuredClone(saved))}
      onExport={() => saveText(`dashboard-${tier}.json`, layoutFileText(saved))}
      onImport={(file) => void importFile(file)}
      onReset={() => confirm(t('dashboardWidgets.resetConfirm'), () => store(DEFAULT_DASHBOARD, 'dashboardWidgets.resetDone'))}
      onDelete={() => confirm(t('dashboardWidgets.deleteConfirm'), () => store({ pages: [] }, 'dashboardWidgets.deleted'))}
    />
  );
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="widget-dashboard" data-editing={draft ? 'true' : 'false'}>
      {toolbar}
      {layout.pages.length ? (
        <Tabs activeKey={page?.id} onChange={setPageId} items={layout.pages.map((p) => ({ key: p.id, label: p.name || '---' }))} style={{ marginBottom: -16 }} />
      ) : null}
      {!page ? <Empty description={t('dashboardWidgets.empty')} /> : null}
      {page && !page.widgets.length ? <Empty description={t('dashboardWidgets.emptyPage')} /> : null}
      {page?.widgets.length ? (
        <Suspense fallback={<Skeleton active />}>
          <DashboardGrid
            tier={tier}
            page={page}
            editing={draft !== undefined}
            onPlace={(grid: Layout) => edit((l) => placeWidgets(l, page.id, grid))}
            onRemove={(i) => edit((l) => removeWidget(l, page.id, i))}
            onOptions={(i, options: Widget['options']) => edit((l) => setWidgetOptions(l, page.id, i, options))}
          />
        </Suspense>
      ) : null}
    </Space>
  );
}
