import { Button, Drawer, Space, Tag, type TableColumnsType } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/use-self';
import { DataTable, type Page } from '../../components/data-table';
import type { ListQuery } from '../../components/list-params';
import { TextFilter } from '../../components/filter-bar';
import { RemoveLink } from '../sites/remove-link';
import { siteModuleKeys, type AssignKind } from './queries';
import { AssignModal } from './assign-modal';
import { useModuleMutation } from './use-module-mutation';

type Base = { id: number; name: string; domains: { id: number; name: string }[] };

/**
 * One module kind of a site: its list (name, what it holds, the domains using it), create and edit through
 * `editor`, the items of a module in a drawer, removal with confirmation, and domain assignment.
 */
export function ModuleTab<T extends Base>(o: {
  siteId: number;
  kind: AssignKind;
  fetch: (query: ListQuery) => Promise<Page<T>>;
  columns: TableColumnsType<T>;
  editor: (item: T | undefined, close: () => void) => ReactNode;
  remove: (ids: number[]) => Promise<unknown>;
  items?: (item: T) => ReactNode;
  overrideCode?: number;
}) {
  const { t } = useTranslation();
  const editable = useCan()('sites.edit');
  const [editing, setEditing] = useState<T | 'new'>();
  const [open, setOpen] = useState<T>();
  const [assigning, setAssigning] = useState<{ moduleId?: number }>();
  const [modules, setModules] = useState<T[]>([]);
  const key = siteModuleKeys.list(o.siteId, o.kind);
  const remove = useModuleMutation({ fn: (ids: number[]) => o.remove(ids), success: 'removeSuccess', refresh: [key], overrideCode: o.overrideCode });
  const columns: TableColumnsType<T> = [
    { key: 'name', title: t('siteModules.name'), dataIndex: 'name', sorter: true },
    ...o.columns,
    {
      key: 'domains',
      title: t('siteModules.domains'),
      render: (_, m) => (m.domains.length ? m.domains.map((d) => <Tag key={d.id}>{d.name}</Tag>) : '—'),
    },
    {
      key: 'actions',
      title: t('sites.actions'),
      render: (_, m) => (
        <Space size={0}>
          {o.items ? (
            <Button size="small" type="link" onClick={() => setOpen(m)} data-testid={`module-items-${m.id}`}>
              {t('siteModules.items')}
            </Button>
          ) : null}
          {editable ? (
            <>
              <Button size="small" type="link" onClick={() => setEditing(m)}>
                {t('sites.edit')}
              </Button>
              <Button size="small" type="link" onClick={() => setAssigning({ moduleId: m.id })}>
                {t('siteModules.assign')}
              </Button>
              <RemoveLink name={m.name} onConfirm={() => remove.mutate([m.id])} />
            </>
          ) : null}
        </Space>
      ),
    },
  ];
  return (
    <>
      <DataTable<T>
        queryKey={key}
        fetch={async (query) => {
          const page = await o.fetch(query);
          setModules(page.data);
          return page;
        }}
        columns={columns}
        rowKey="id"
        filters={<TextFilter name="name" placeholder={t('siteModules.name')} />}
        toolbar={
          editable ? (
            <Space>
              <Button onClick={() => setAssigning({})}>{t('siteModules.assign')}</Button>
              <Button type="primary" onClick={() => setEditing('new')} data-testid={`module-add-${o.kind}`}>
                {t('siteModules.add')}
              </Button>
            </Space>
          ) : null
        }
      />
      {editing ? o.editor(editing === 'new' ? undefined : editing, () => setEditing(undefined)) : null}
      {assigning ? (
        <AssignModal siteId={o.siteId} kind={o.kind} modules={modules} moduleId={assigning.moduleId} overrideCode={o.overrideCode} onClose={() => setAssigning(undefined)} />
      ) : null}
      <Drawer open={!!open} width={820} title={open?.name} onClose={() => setOpen(undefined)} destroyOnHidden>
        {open && o.items ? o.items(open) : null}
      </Drawer>
    </>
  );
}
