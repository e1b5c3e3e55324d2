import { useMutation, useQuery } from '@tanstack/react-query';
import { Form, Input, InputNumber, Modal, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { infraApi } from '../../api/infra';
import type { Group, GroupBody } from '../../api/infra-types';
import { toast } from '../../app/feedback';
import { queryClient } from '../../app/query-client';
import { useFormRules } from '../../components/form-rules';
import { LINE_KEYS } from './line-label';

type Props = { zoneID: number; group?: Group; nodeOptions: { value: number; label: string }[]; onClose: () => void };

/** Create or change a resolution group: its line, priority, DNS flag and nodes. */
export function GroupFormModal({ zoneID, group, nodeOptions, onClose }: Props) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<GroupBody>();
  const lines = useQuery({ queryKey: ['dnsLines'], queryFn: infraApi.dnsLines, staleTime: Infinity });
  const save = useMutation({
    mutationFn: (v: GroupBody) => (group ? infraApi.updateGroup(zoneID, { ...v, id: group.id }) : infraApi.createGroup(zoneID, v)),
    onSuccess: () => {
      toast.success(t(group ? 'infra.updateSuccess' : 'infra.createSuccess'));
      void queryClient.invalidateQueries({ queryKey: ['groups'] });
      onClose();
    },
  });
  const initial: GroupBody = group ?? { name: '', line: 'default', priority: 0, dnsResolve: true, nodeIDs: [] };
  return (
    <Modal open title={t(group ? 'infra.edit' : 'infra.create')} okText={t('common.submit')} cancelText={t('infra.cancel')} onOk={() => form.submit()} onCancel={onClose} confirmLoading={save.isPending}>
      <Form<GroupBody> form={form} layout="vertical" initialValues={initial} onFinish={(v) => save.mutate({ ...v, name: v.name.trim() })} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        <Form.Item name="name" label={t('infra.name')} rules={[rules.required, { max: 64, message: t('validation.wrongFormat') }]}>
          <Input />
        </Form.Item>
        <Form.Item name="line" label={t('lines.line')} rules={[rules.required]}>
          <Select loading={lines.isLoading} options={(lines.data ?? []).map((l) => ({ value: l, label: t(LINE_KEYS[l]) }))} />
        </Form.Item>
        <Form.Item name="priority" label={t('lines.priority')} rules={[rules.required]}>
          <InputNumber min={0} max={1000} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="dnsResolve" label={t('lines.dnsResolve')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="nodeIDs" label={t('lines.nodes')}>
          <Select mode="multiple" options={nodeOptions} optionFilterProp="label" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
