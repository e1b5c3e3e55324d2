import { Button, Form, Modal, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { formatDate } from '../../lib/dates';
import { RULE_KINDS } from '@edgekeep/contract/schemas/firewall-rules';
import { firewallKeys, ruleLists, type Rule } from './queries';
import { BatchButtons } from './batch-buttons';
import { enabledColumn, RowActions } from './ip-list-tab';
import type { KindConfig } from './kind-parts';
import { useFirewallMutation } from './use-firewall-mutation';

/** One list of rules (regions, user agents, headers, rate limits, frequencies, abuse IP, layer 4). */
export function RuleTab({ siteId, kind }: { siteId: number; kind: KindConfig }) {
  const { t } = useTranslation();
  const editable = useCan()('firewall.edit');
  const [editing, setEditing] = useState<Rule | 'new'>();
  const list = kind.key;
  /** The screen's names for the list (URL scope, test ids) follow the API's plural path name. */
  const name = RULE_KINDS[list].plural.replace('/', '-');
  const enable = useFirewallMutation({ siteId, list, fn: (v: { ids: number[]; enabled: boolean }) => ruleLists.enable(siteId, list, v), success: 'updateSuccess' });
  const remove = useFirewallMutation({ siteId, list, fn: (ids: number[]) => ruleLists.remove(siteId, list, ids), success: 'removeSuccess' });
  const columns: TableColumnsType<Rule> = [
    ...kind.columns(t),
    { key: 'createdAt', title: t('firewall.createdAt'), render: (_, r) => formatDate(r.createdAt) },
    enabledColumn<Rule>({ t, editable, onChange: (id, enabled) => enable.mutate({ ids: [id], enabled }) }),
    {
      key: 'actions',
      title: t('sites.actions'),
      render: (_, r) => (editable ? <RowActions name={kind.name(r)} enabled={r.enabled} onEdit={() => setEditing(r)} onRemove={() => remove.mutate([r.id])} /> : null),
    },
  ];
  return (
    <>
      <DataTable<Rule>
        scope={name}
        queryKey={firewallKeys.list(siteId, list)}
        fetch={(query) => ruleLists.list(siteId, list, query)}
        columns={columns}
        rowKey="id"
        batch={editable ? (selected, clear) => <BatchButtons selected={selected} clear={clear} enable={enable.mutate} /> : undefined}
        toolbar={editable ? <Button type="primary" onClick={() => setEditing('new')} data-testid={`add-${name}`}>{t('firewall.addRule')}</Button> : null}
      />
      {editing ? <RuleModal siteId={siteId} kind={kind} rule={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} /> : null}
    </>
  );
}

function RuleModal({ siteId, kind, rule, onClose }: { siteId: number; kind: KindConfig; rule?: Rule; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Record<string, unknown>>();
  const save = useFirewallMutation({
    siteId,
    list: kind.key,
    fn: (body: Record<string, unknown>) => ruleLists.save(siteId, kind.key, body, rule?.id),
    success: rule ? 'updateSuccess' : 'createSuccess',
    done: onClose,
  });
  return (
    <Modal open title={t(rule ? 'firewall.editRule' : 'firewall.addRule')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={save.isPending} width={640}>
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={rule ?? kind.defaults}
        onFinish={(v) => save.mutate(kind.toBody(v))}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
      >
        <kind.Fields />
      </Form>
    </Modal>
  );
}
