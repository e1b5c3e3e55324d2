import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Space, Switch, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { RemoveLink } from '../sites/remove-link';
import { useSiteMutation } from '../sites/use-site-mutation';
import { aclKeys, wafAcl, type AclCondition, type AclRule } from './queries';
import { RuleModal } from './rule-modal';

function ConditionText({ c }: { c: AclCondition }) {
  const { t } = useTranslation();
  const value = Array.isArray(c.value) ? c.value.join(', ') : c.value;
  const field = t(`advancedFirewall.fields.${c.field}`) + (c.name ? ` ${c.name}` : '') + (c.field === 'frequency' ? ` (${c.seconds ?? 60}s)` : '');
  return (
    <Typography.Text>
      {field} <Typography.Text type="secondary">{t(`advancedFirewall.operators.${c.operator}`)}</Typography.Text>{' '}
      <Typography.Text code>{value || '""'}</Typography.Text>
      {c.regex ? <Tag style={{ marginLeft: 4 }}>{t('advancedFirewall.regex')}</Tag> : null}
    </Typography.Text>
  );
}

/** A module's rules in priority order: reorder, enable or close (one or in batch), edit, remove. */
export function RulesTable({ siteId, moduleId }: { siteId: number; moduleId: number }) {
  const { t } = useTranslation();
  const editable = useCan()('firewall.edit');
  const [editing, setEditing] = useState<AclRule | 'new'>();
  const [shown, setShown] = useState<AclRule[]>([]);
  const refresh = [aclKeys.rules(siteId, moduleId), aclKeys.modules(siteId)];
  const enable = useSiteMutation({
    fn: (v: { ids: number[]; enabled: boolean }) => wafAcl.enableRules(siteId, moduleId, v),
    success: 'updateSuccess',
    refresh,
  });
  const remove = useSiteMutation({ fn: (ids: number[]) => wafAcl.removeRules(siteId, moduleId, ids), success: 'removeSuccess', refresh });
  /** Swaps the priorities of two neighbours (equal priorities get distinct ones). */
  const move = useSiteMutation({
    fn: async ({ a, b }: { a: AclRule; b: AclRule }) => {
      const [pa, pb] = a.priority === b.priority ? [b.priority + 1, b.priority] : [b.priority, a.priority];
      await wafAcl.updateRule(siteId, moduleId, { id: a.id, priority: pa });
      await wafAcl.updateRule(siteId, moduleId, { id: b.id, priority: pb });
    },
    success: 'updateSuccess',
    refresh,
  });
  const columns: TableColumnsType<AclRule> = [
    { key: 'priority', title: t('advancedFirewall.priority'), dataIndex: 'priority', sorter: true, width: 100 },
    { key: 'name', title: t('advancedFirewall.ruleName'), dataIndex: 'name', sorter: true },
    {
      key: 'conditions',
      title: t('advancedFirewall.conditions'),
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          {r.conditions.map((c, i) => (
            <span key={i}>
              {i > 0 ? <Tag color="blue">{t(r.logic === 'or' ? 'advancedFirewall.logicOr' : 'advancedFirewall.logicAnd')}</Tag> : null}
              <ConditionText c={c} />
            </span>
          ))}
        </Space>
      ),
    },
    {
      key: 'action',
      title: t('advancedFirewall.action'),
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <Tag color={r.action === 'allow' ? 'green' : r.action.startsWith('redirect') ? 'gold' : 'red'}>{t(`advancedFirewall.actions.${r.action}`)}</Tag>
          {r.redirectURL ? <Typography.Text type="secondary">{r.redirectURL}</Typography.Text> : null}
        </Space>
      ),
    },
    {
      key: 'enabled',
      title: t('advancedFirewall.enabled'),
      render: (_, r) => <Switch size="small" checked={r.enabled} disabled={!editable} onChange={(enabled) => enable.mutate({ ids: [r.id], enabled })} />,
    },
    {
      key: 'actions',
      title: t('sites.actions'),
      // Stays in view when long conditions make the table scroll sideways.
      fixed: 'right',
      render: (_, r) => {
        const i = shown.findIndex((x) => x.id === r.id);
        return editable ? (
          <Space>
            <Button size="small" type="text" icon={<ArrowUpOutlined />} disabled={i <= 0} aria-label={t('advancedFirewall.moveUp')} onClick={() => move.mutate({ a: r, b: shown[i - 1] })} />
            <Button size="small" type="text" icon={<ArrowDownOutlined />} disabled={i < 0 || i >= shown.length - 1} aria-label={t('advancedFirewall.moveDown')} onClick={() => move.mutate({ a: r, b: shown[i + 1] })} />
            <Button size="small" type="link" onClick={() => setEditing(r)}>
              {t('sites.edit')}
            </Button>
            <RemoveLink name={r.name} onConfirm={() => remove.mutate([r.id])} />
          </Space>
        ) : null;
      },
    },
  ];
  const batch = (ids: number[], clear: () => void) => (
    <Space>
      <Button disabled={!ids.length} onClick={() => enable.mutate({ ids, enabled: true }, { onSuccess: clear })}>
        {t('advancedFirewall.batchEnable')}
      </Button>
      <Button disabled={!ids.length} onClick={() => enable.mutate({ ids, enabled: false }, { onSuccess: clear })}>
        {t('advancedFirewall.batchClose')}
      </Button>
      <Popconfirm title={t('advancedFirewall.confirmRemoveRules', { count: ids.length })} disabled={!ids.length} onConfirm={() => remove.mutate(ids, { onSuccess: clear })}>
        <Button danger disabled={!ids.length}>
          {t('advancedFirewall.batchRemove')}
        </Button>
      </Popconfirm>
    </Space>
  );
  return (
    <>
      <DataTable<AclRule>
        scope="rules"
        queryKey={aclKeys.rules(siteId, moduleId)}
        fetch={async (query) => {
          const page = await wafAcl.rules(siteId, moduleId, query);
          setShown(page.data);
          return page;
        }}
        columns={columns}
        rowKey="id"
        toolbar={
          editable ? (
            <Button type="primary" onClick={() => setEditing('new')} data-testid="add-rule">
              {t('advancedFirewall.addRule')}
            </Button>
          ) : null
        }
        batch={editable ? (selected, clear) => batch(selected.map(Number), clear) : undefined}
      />
      {editing ? (
        <RuleModal
          siteId={siteId}
          moduleId={moduleId}
          rule={editing === 'new' ? undefined : editing}
          nextPriority={(shown.at(-1)?.priority ?? 0) + 10}
          onClose={() => setEditing(undefined)}
        />
      ) : null}
    </>
  );
}
