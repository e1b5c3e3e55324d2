import { createMonitorGroupBody } from '@edgekeep/contract/schemas/monitors';
import { Button, Card, Form, Input, Modal, Select, Space, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { useFormRules, zodRule } from '../../components/form-rules';
import { RemoveButton } from '../../components/remove-button';
import { fetchMonitorGroups, monitorKeys, useMetaMonitors, useRemoveMonitorGroups, useSaveMonitorGroup, type MonitorGroup } from './queries';

type Values = { name: string; memo?: string; monitorIDs?: number[] };

function GroupModal({ group, onClose }: { group?: MonitorGroup; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Values>();
  const monitors = useMetaMonitors();
  const save = useSaveMonitorGroup(group?.id);
  const submit = (v: Values) =>
    save.mutate(
      { name: v.name.trim(), memo: v.memo ?? '', monitorIDs: v.monitorIDs ?? [] },
      {
        onSuccess: () => {
          toast.success(t(group ? 'infra.updateSuccess' : 'infra.createSuccess'));
          onClose();
        },
      },
    );
  return (
    <Modal open title={t(group ? 'infra.edit' : 'infra.create')} okText={t('common.submit')} cancelText={t('infra.cancel')} onOk={() => form.submit()} onCancel={onClose} confirmLoading={save.isPending}>
      <Form<Values> form={form} layout="vertical" initialValues={group} onFinish={submit} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        <Form.Item name="name" label={t('infra.name')} rules={[rules.required, zodRule(createMonitorGroupBody.shape.name, t('validation.wrongFormat'))]}>
          <Input />
        </Form.Item>
        <Form.Item name="monitorIDs" label={t('monitors.groupMonitors')}>
          <Select mode="multiple" showSearch={{ optionFilterProp: 'label' }} loading={monitors.isLoading} options={(monitors.data ?? []).map((m) => ({ value: m.id, label: m.name }))} />
        </Form.Item>
        <Form.Item name="memo" label={t('virtualNodes.memo')} rules={[zodRule(createMonitorGroupBody.shape.memo, t('validation.wrongFormat'))]}>
          <Input.TextArea rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export default function MonitorGroupsPage() {
  const { t } = useTranslation();
  const canEdit = useCan()('monitors.edit');
  const [open, setOpen] = useState<{ group?: MonitorGroup }>();
  const monitors = useMetaMonitors();
  const nameOf = (id: number) => monitors.data?.find((m) => m.id === id)?.name ?? `#${id}`;
  const remove = useRemoveMonitorGroups(() => toast.success(t('infra.removeSuccess')));
  const columns: TableColumnsType<MonitorGroup> = [
    { key: 'name', dataIndex: 'name', title: t('infra.name'), sorter: true },
    { key: 'monitorIDs', dataIndex: 'monitorIDs', title: t('monitors.groupMonitors'), render: (ids: number[]) => ids.map((id) => <Tag key={id}>{nameOf(id)}</Tag>) },
    { key: 'memo', dataIndex: 'memo', title: t('virtualNodes.memo') },
    {
      key: 'actions',
      title: t('infra.actions'),
      render: (_, group) =>
        canEdit ? (
          <Space size="small">
            <Button size="small" onClick={() => setOpen({ group })}>
              {t('infra.edit')}
            </Button>
            <RemoveButton name={group.name} onConfirm={() => remove.mutate([group.id])} />
          </Space>
        ) : null,
    },
  ];
  return (
    <Card title={t('menu.monitorNodeGroup')}>
      <DataTable<MonitorGroup>
        queryKey={monitorKeys.groups}
        fetch={fetchMonitorGroups}
        columns={columns}
        rowKey="id"
        toolbar={
          canEdit ? (
            <Button type="primary" onClick={() => setOpen({})}>
              {t('infra.create')}
            </Button>
          ) : null
        }
      />
      {open ? <GroupModal group={open.group} onClose={() => setOpen(undefined)} /> : null}
    </Card>
  );
}
