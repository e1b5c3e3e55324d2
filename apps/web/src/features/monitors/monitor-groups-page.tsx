import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Card, Form, Input, Modal, Select, Space, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { monitorsApi, type MonitorGroup } from '../../api/monitors';
import { toast } from '../../app/feedback';
import { queryClient } from '../../app/query-client';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { useFormRules } from '../../components/form-rules';
import { RemoveButton } from '../../components/remove-button';

type Values = { name: string; memo?: string; monitorIDs?: number[] };

/** Saves the group, then adds and removes monitors so that it holds exactly the ones chosen. */
async function saveGroup(group: MonitorGroup | undefined, v: Values) {
  const body = { name: v.name.trim(), memo: v.memo ?? '' };
  const saved = group ? await monitorsApi.updateGroup({ id: group.id, ...body }) : await monitorsApi.createGroup(body);
  const wanted = v.monitorIDs ?? [];
  const added = wanted.filter((id) => !saved.monitorIDs.includes(id));
  const removed = saved.monitorIDs.filter((id) => !wanted.includes(id));
  if (added.length) await monitorsApi.addToGroup(saved.id, added);
  if (removed.length) await monitorsApi.removeFromGroup(saved.id, removed);
}

function GroupModal({ group, onClose }: { group?: MonitorGroup; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Values>();
  const monitors = useQuery({ queryKey: ['monitors', 'meta'], queryFn: monitorsApi.meta });
  const save = useMutation({
    mutationFn: (v: Values) => saveGroup(group, v),
    onSuccess: () => {
      toast.success(t(group ? 'infra.updateSuccess' : 'infra.createSuccess'));
      void queryClient.invalidateQueries({ queryKey: ['monitorGroups'] });
      onClose();
    },
  });
  return (
    <Modal open title={t(group ? 'infra.edit' : 'infra.create')} okText={t('common.submit')} cancelText={t('infra.cancel')} onOk={() => form.submit()} onCancel={onClose} confirmLoading={save.isPending}>
      <Form<Values> form={form} layout="vertical" initialValues={group} onFinish={(v) => save.mutate(v)} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        <Form.Item name="name" label={t('infra.name')} rules={[rules.required, { max: 64, message: t('validation.wrongFormat') }]}>
          <Input />
        </Form.Item>
        <Form.Item name="monitorIDs" label={t('monitors.groupMonitors')}>
          <Select mode="multiple" showSearch={{ optionFilterProp: 'label' }} loading={monitors.isLoading} options={(monitors.data ?? []).map((m) => ({ value: m.id, label: m.name }))} />
        </Form.Item>
        <Form.Item name="memo" label={t('virtualNodes.memo')} rules={[{ max: 256, message: t('validation.wrongFormat') }]}>
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
  const monitors = useQuery({ queryKey: ['monitors', 'meta'], queryFn: monitorsApi.meta });
  const nameOf = (id: number) => monitors.data?.find((m) => m.id === id)?.name ?? `#${id}`;
  const remove = useMutation({
    mutationFn: monitorsApi.removeGroups,
    onSuccess: () => {
      toast.success(t('infra.removeSuccess'));
      void queryClient.invalidateQueries({ queryKey: ['monitorGroups'] });
    },
  });
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
        queryKey={['monitorGroups']}
        fetch={monitorsApi.groups}
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
