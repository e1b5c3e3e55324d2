import { Form, Input, InputNumber, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { TEXT_FIELD_MAX } from '@edgekeep/contract/constants';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';
import { useZoneOptions } from '../zones/use-meta-zones';
import { nodeCalls, useNodesChange, type Node, type NodeBody } from './queries';

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const isIp = (v: string) => IPV4.test(v) || (v.includes(':') && /^[\da-fA-F:.]+$/.test(v));

/** Add a node to a zone, or edit its name, address, role, bandwidth, cache capacity and memo. */
export function NodeFormModal({ node, onClose }: { node?: Node; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const zones = useZoneOptions();
  const [form] = Form.useForm<NodeBody>();
  const save = useNodesChange(
    (v: NodeBody): Promise<unknown> =>
      node
        ? nodeCalls.update({ id: node.id, name: v.name, ip: v.ip, role: v.role, bandwidth: v.bandwidth, cacheCapacity: v.cacheCapacity, memo: v.memo ?? '' })
        : nodeCalls.create({ ...v, memo: v.memo ?? '' }),
    () => {
      toast.success(t(node ? 'infra.updateSuccess' : 'infra.createSuccess'));
      onClose();
    },
  );
  const initial: Partial<NodeBody> = node ?? { type: 'edge', role: 'main', portType: 7, bandwidth: 0, cacheCapacity: 0 };
  const ipRule = { validator: (_: unknown, v: string) => (!v || isIp(v.trim()) ? Promise.resolve() : Promise.reject(new Error(t('validation.wrongFormat')))) };
  return (
    <Modal open title={t(node ? 'infra.edit' : 'infra.create')} okText={t('common.submit')} cancelText={t('infra.cancel')} onOk={() => form.submit()} onCancel={onClose} confirmLoading={save.isPending}>
      <Form<NodeBody> form={form} layout="vertical" initialValues={initial} onFinish={(v) => save.mutate({ ...v, ip: v.ip.trim(), name: v.name.trim() })} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        <Form.Item name="zoneID" label={t('infra.zone')} rules={[rules.required]}>
          <Select options={zones} disabled={!!node} />
        </Form.Item>
        <Form.Item name="name" label={t('infra.name')} rules={[rules.required, { max: 64, message: t('validation.wrongFormat') }]}>
          <Input />
        </Form.Item>
        <Form.Item name="ip" label={t('nodes.ip')} rules={[rules.required, ipRule]}>
          <Input />
        </Form.Item>
        <Form.Item name="type" label={t('nodes.type')}>
          <Select disabled={!!node} options={[{ value: 'edge', label: t('nodes.edge') }, { value: 'relay', label: t('nodes.relay') }]} />
        </Form.Item>
        <Form.Item name="role" label={t('nodes.role')}>
          <Select options={[{ value: 'main', label: t('nodes.main') }, { value: 'backup', label: t('nodes.backup') }]} />
        </Form.Item>
        <Form.Item name="portType" label={t('nodes.portType')}>
          <Select disabled={!!node} options={[{ value: 7, label: t('nodes.layer7') }, { value: 4, label: t('nodes.layer4') }]} />
        </Form.Item>
        <Form.Item name="bandwidth" label={t('nodes.bandwidth')} rules={[rules.required]}>
          <InputNumber min={0} max={10_000_000} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="cacheCapacity" label={t('nodes.cacheCapacity')} rules={[rules.required]}>
          <InputNumber min={0} max={100_000_000} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="memo" label={t('infra.memo')} rules={[{ max: TEXT_FIELD_MAX, message: t('validation.wrongFormat') }]}>
          <Input.TextArea rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
