import { Form, Input, InputNumber, Modal, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { createGroupBody } from '@edgekeep/contract/schemas/sites';
import { toast } from '../../app/feedback';
import { useFormRules, zodRule } from '../../components/form-rules';
import { LINE_KEYS } from './line-label';
import { useDnsLines, useSaveGroup, type Group, type GroupBody } from './queries';

type Props = { zoneID: number; group?: Group; nodeOptions: { value: number; label: string }[]; onClose: () => void };

/** Create or change a resolution group: its line, priority, DNS flag and nodes. */
export function GroupFormModal({ zoneID, group, nodeOptions, onClose }: Props) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<GroupBody>();
  const lines = useDnsLines();
  const save = useSaveGroup(zoneID, group?.id);
  const submit = (v: GroupBody) =>
    save.mutate(
      { ...v, name: v.name.trim() },
      {
        onSuccess: () => {
          toast.success(t(group ? 'infra.updateSuccess' : 'infra.createSuccess'));
          onClose();
        },
      },
    );
  const initial: GroupBody = group ?? { name: '', line: 'default', priority: 0, dnsResolve: true, nodeIDs: [] };
  return (
    <Modal open title={t(group ? 'infra.edit' : 'infra.create')} okText={t('common.submit')} cancelText={t('infra.cancel')} onOk={() => form.submit()} onCancel={onClose} confirmLoading={save.isPending}>
      <Form<GroupBody> form={form} layout="vertical" initialValues={initial} onFinish={submit} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        <Form.Item name="name" label={t('infra.name')} rules={[rules.required, zodRule(createGroupBody.shape.name, t('validation.wrongFormat'))]}>
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
