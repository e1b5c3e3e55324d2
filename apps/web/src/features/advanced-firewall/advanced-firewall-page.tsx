import { Button, Card, Empty, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCan } from '../../app/use-self';
import { RemoveLink } from '../sites/remove-link';
import { useSitePicker } from '../sites/site-picker';
import { useSiteMutation } from '../sites/use-site-mutation';
import { aclKeys, wafAcl, useAclModules, type AclModule } from './queries';
import { AssignModal, ModuleModal } from './module-modal';
import { RulesTable } from './rules-table';

/** Advanced firewall (user menu): a site's rule modules, the domains each guards, and the chosen module's rules. */
export default function AdvancedFirewallPage() {
  const { t } = useTranslation();
  const { siteId, picker, empty } = useSitePicker();
  return (
    <Card title={t('menu.advancedFirewall')} extra={picker}>
      {siteId ? <Modules siteId={siteId} /> : empty ? <Empty description={t('advancedFirewall.noSites')} /> : null}
    </Card>
  );
}

function Modules({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const editable = useCan()('firewall.edit');
  const [search, setSearch] = useSearchParams();
  const [editing, setEditing] = useState<AclModule | 'new'>();
  const [assigning, setAssigning] = useState<AclModule>();
  const modules = useAclModules(siteId);
  const list = modules.data?.data ?? [];
  const moduleId = Number(search.get('module')) || list[0]?.id;
  const current = list.find((m) => m.id === moduleId);
  const pick = (id: number) =>
    setSearch((prev) => {
      const next = new URLSearchParams([...prev.entries()].filter(([k]) => !k.startsWith('rules.')));
      next.set('module', String(id));
      return next;
    }, { replace: true });
  const remove = useSiteMutation({ fn: (ids: number[]) => wafAcl.removeModules(siteId, ids), success: 'removeSuccess', refresh: [aclKeys.modules(siteId)] });
  const columns: TableColumnsType<AclModule> = [
    { key: 'name', title: t('advancedFirewall.moduleName'), render: (_, m) => <Typography.Text strong={m.id === moduleId}>{m.name}</Typography.Text> },
    { key: 'rules', title: t('advancedFirewall.ruleCount'), dataIndex: 'ruleCount', width: 90 },
    {
      key: 'domains',
      title: t('advancedFirewall.domains'),
      render: (_, m) => (m.domains.length ? m.domains.map((d) => <Tag key={d.id}>{d.name}</Tag>) : <Typography.Text type="secondary">{t('advancedFirewall.notAssigned')}</Typography.Text>),
    },
    {
      key: 'actions',
      title: t('sites.actions'),
      render: (_, m) =>
        editable ? (
          <Space onClick={(e) => e.stopPropagation()}>
            <Button size="small" type="link" onClick={() => setAssigning(m)}>
              {t('advancedFirewall.assign')}
            </Button>
            <Button size="small" type="link" onClick={() => setEditing(m)}>
              {t('sites.edit')}
            </Button>
            <RemoveLink name={m.name} onConfirm={() => remove.mutate([m.id])} />
          </Space>
        ) : null,
    },
  ];
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card
        type="inner"
        title={t('advancedFirewall.modules')}
        extra={editable ? <Button onClick={() => setEditing('new')} data-testid="add-module">{t('advancedFirewall.addModule')}</Button> : null}
      >
        <Table<AclModule>
          rowKey="id"
          size="small"
          loading={modules.isLoading}
          dataSource={list}
          columns={columns}
          pagination={false}
          onRow={(m) => ({ onClick: () => pick(m.id), style: { cursor: 'pointer' } })}
          rowClassName={(m) => (m.id === moduleId ? 'ant-table-row-selected' : '')}
          locale={{ emptyText: <Empty description={t('advancedFirewall.noModules')} /> }}
        />
      </Card>
      {current ? (
        <Card type="inner" title={t('advancedFirewall.rulesOf', { name: current.name })}>
          <RulesTable key={current.id} siteId={siteId} moduleId={current.id} />
        </Card>
      ) : null}
      {editing ? <ModuleModal siteId={siteId} module={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} onCreated={pick} /> : null}
      {assigning ? <AssignModal siteId={siteId} module={assigning} onClose={() => setAssigning(undefined)} /> : null}
    </Space>
  );
}
