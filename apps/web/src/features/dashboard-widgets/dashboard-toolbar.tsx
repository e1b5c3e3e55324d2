import { DownOutlined } from '@ant-design/icons';
import { WIDGET_TYPES, type WidgetType } from '@edgekeep/contract/schemas/dashboard';
import { Button, Dropdown, Input, Space, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { isChart } from './layout-state';
import { MEASURE_KEYS, measureOf } from './widget-labels';

type ViewProps = {
  canEdit: boolean;
  onEdit: () => void;
  onExport: () => void;
  onImport: (file: File) => void;
  onReset: () => void;
  onDelete: () => void;
};

/** Outside edit mode: edit, export, import, reset to the default layout, delete. */
export function ViewToolbar({ canEdit, onEdit, onExport, onImport, onReset, onDelete }: ViewProps) {
  const { t } = useTranslation();
  return (
    <Space wrap>
      {canEdit ? <Button type="primary" onClick={onEdit} data-testid="dashboard-edit">{t('dashboardWidgets.edit')}</Button> : null}
      <Button onClick={onExport} data-testid="dashboard-export">{t('dashboardWidgets.export')}</Button>
      {canEdit ? (
        <>
          <Upload accept="application/json,.json" showUploadList={false} beforeUpload={(file) => { onImport(file); return false; }}>
            <Button data-testid="dashboard-import">{t('dashboardWidgets.import')}</Button>
          </Upload>
          <Button onClick={onReset} data-testid="dashboard-reset">{t('dashboardWidgets.reset')}</Button>
          <Button danger onClick={onDelete} data-testid="dashboard-delete">{t('dashboardWidgets.delete')}</Button>
        </>
      ) : null}
    </Space>
  );
}

type EditProps = {
  pageName?: string;
  dirty: boolean;
  saving: boolean;
  onAddWidget: (type: WidgetType) => void;
  onAddPage: (copy: boolean) => void;
  onRemovePage: () => void;
  onRename: (name: string) => void;
  onSave: () => void;
  onExit: () => void;
};

/** In edit mode: add a component or a page (blank or a copy), rename or remove the page, save, exit. */
export function EditToolbar(p: EditProps) {
  const { t } = useTranslation();
  const group = (charts: boolean) => ({
    type: 'group' as const,
    label: t(charts ? 'dashboardWidgets.charts' : 'dashboardWidgets.cards'),
    children: WIDGET_TYPES.filter((type) => isChart(type) === charts).map((type) => ({ key: type, label: t(MEASURE_KEYS[measureOf(type)]) })),
  });
  const hasPage = p.pageName !== undefined;
  return (
    <Space wrap>
      <Dropdown disabled={!hasPage} menu={{ items: [group(false), group(true)], onClick: ({ key }) => p.onAddWidget(key as WidgetType) }} trigger={['click']}>
        <Button type="primary" data-testid="dashboard-add-component">{t('dashboardWidgets.addComponent')} <DownOutlined /></Button>
      </Dropdown>
      <Dropdown
        menu={{
          items: [{ key: 'blank', label: t('dashboardWidgets.addBlankPage') }, { key: 'copy', label: t('dashboardWidgets.copyPage'), disabled: !hasPage }],
          onClick: ({ key }) => p.onAddPage(key === 'copy'),
        }}
        trigger={['click']}
      >
        <Button data-testid="dashboard-add-page">{t('dashboardWidgets.addPage')} <DownOutlined /></Button>
      </Dropdown>
      {hasPage ? (
        <>
          <Input value={p.pageName} maxLength={64} onChange={(e) => p.onRename(e.target.value)} style={{ width: 180 }} aria-label={t('dashboardWidgets.pageName')} />
          <Button danger onClick={p.onRemovePage} data-testid="dashboard-remove-page">{t('dashboardWidgets.removePage')}</Button>
        </>
      ) : null}
      <Button type="primary" disabled={!p.dirty} loading={p.saving} onClick={p.onSave} data-testid="dashboard-save">{t('common.save')}</Button>
      <Button onClick={p.onExit} data-testid="dashboard-exit">{t('dashboardWidgets.exit')}</Button>
    </Space>
  );
}
