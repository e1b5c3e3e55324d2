import { Button, Space, type FormInstance } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RemoveLink } from '../sites/remove-link';

/**
 * Add-or-change in a module's inline rule form: Edit loads a row into the form, saving then sends the row's id
 * (the API changes that row), and Cancel, or a save, goes back to adding.
 */
export function useRowEdit<V extends object, R extends { id: number }>(form: FormInstance<V>, toValues: (row: R) => V) {
  const [id, setId] = useState<number>();
  return {
    editing: id !== undefined,
    start: (row: R) => {
      setId(row.id);
      form.setFieldsValue(toValues(row) as Parameters<FormInstance<V>['setFieldsValue']>[0]);
    },
    stop: () => {
      setId(undefined);
      form.resetFields();
    },
    /** The body to send: with the edited row's id, or as it is for a new row. */
    body: <B extends object>(b: B): B & { id?: number } => (id === undefined ? b : { ...b, id }),
  };
}

export type RowEdit = ReturnType<typeof useRowEdit>;

/** The inline form's submit (Add, or Save while a row is edited) and, while editing, Cancel. */
export function RowEditSubmit({ edit, pending, testId }: { edit: Pick<RowEdit, 'editing' | 'stop'>; pending: boolean; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Space>
      <Button type="primary" htmlType="submit" loading={pending} data-testid={testId}>
        {edit.editing ? t('common.save') : t('siteModules.add')}
      </Button>
      {edit.editing ? <Button onClick={edit.stop}>{t('common.cancel')}</Button> : null}
    </Space>
  );
}

/** A rule row's Edit and Remove links. */
export function RowActions({ name, onEdit, onRemove }: { name: string; onEdit: () => void; onRemove: () => void }) {
  const { t } = useTranslation();
  return (
    <Space size={0}>
      <Button size="small" type="link" onClick={onEdit} data-testid={`edit-${name}`}>
        {t('common.edit')}
      </Button>
      <RemoveLink name={name} onConfirm={onRemove} />
    </Space>
  );
}
