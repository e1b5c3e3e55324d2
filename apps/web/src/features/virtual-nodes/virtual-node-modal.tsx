import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, InputNumber, Modal, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { createVirtualNodeBody } from '@edgekeep/contract/schemas/virtual-nodes';
import { toast } from '../../app/feedback';
import { useFormRules, zodRule } from '../../components/form-rules';
import { useSaveVirtualNode, type VirtualNode, type VirtualNodeBody } from './queries';

type RecordValues = { type: 'cname' | 'ip' | 'node'; value?: string; nodeID?: number };
type Values = { name: string; switchInterval: number; memo?: string; records: RecordValues[] };
type Props = { zoneID: number; node?: VirtualNode; nodeOptions: { value: number; label: string }[]; onClose: () => void };

const toBody = (v: Values): VirtualNodeBody => ({
  name: v.name.trim(),
  switchInterval: v.switchInterval,
  memo: v.memo ?? '',
  records: v.records.map((r) => (r.type === 'node' ? { type: 'node', nodeID: r.nodeID! } : { type: r.type, value: (r.value ?? '').trim() })),
});

/** Create or edit a virtual node: its name, switching interval and the CNAME or IP records it answers with. */
export function VirtualNodeModal({ zoneID, node, nodeOptions, onClose }: Props) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Values>();
  const save = useSaveVirtualNode(zoneID, node?.id);
  const submit = (v: Values) =>
    save.mutate(toBody(v), {
      onSuccess: () => {
        toast.success(t(node ? 'infra.updateSuccess' : 'infra.createSuccess'));
        onClose();
      },
    });
  const initial: Values = node
    ? { name: node.name, switchInterval: node.switchInterval, memo: node.memo, records: node.records.map((r) => (r.nodeID ? { type: 'node', nodeID: r.nodeID } : { type: r.type, value: r.value })) }
    : { name: '', switchInterval: 60, records: [{ type: 'cname' }] };
  const types = [
    { value: 'cname', label: t('virtualNodes.cname') },
    { value: 'ip', label: t('virtualNodes.ip') },
    { value: 'node', label: t('virtualNodes.zoneNode') },
  ];
  return (
    <Modal open width={640} title={t(node ? 'infra.edit' : 'infra.create')} okText={t('common.submit')} cancelText={t('infra.cancel')} onOk={() => form.submit()} onCancel={onClose} confirmLoading={save.isPending}>
      <Form<Values> form={form} layout="vertical" initialValues={initial} onFinish={submit} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        <Form.Item name="name" label={t('infra.name')} rules={[rules.required, zodRule(createVirtualNodeBody.shape.name, t('validation.wrongFormat'))]}>
          <Input />
        </Form.Item>
        <Form.Item name="switchInterval" label={t('virtualNodes.switchInterval')} rules={[rules.required]}>
          <InputNumber min={1} max={86400} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.List name="records" rules={[{ validator: (_, v?: unknown[]) => (v?.length ? Promise.resolve() : Promise.reject(new Error(t('validation.required')))) }]}>
          {(fields, { add, remove }, { errors }) => (
            <Form.Item label={t('virtualNodes.records')}>
              {fields.map((field) => (
                <Space key={field.key} align="baseline" style={{ display: 'flex' }}>
                  <Form.Item name={[field.name, 'type']} rules={[rules.required]}>
                    <Select options={types} style={{ width: 140 }} />
                  </Form.Item>
                  <Form.Item noStyle shouldUpdate>
                    {() =>
                      form.getFieldValue(['records', field.name, 'type']) === 'node' ? (
                        <Form.Item name={[field.name, 'nodeID']} rules={[rules.required]}>
                          <Select options={nodeOptions} style={{ width: 300 }} />
                        </Form.Item>
                      ) : (
                        <Form.Item name={[field.name, 'value']} rules={[rules.required]}>
                          <Input style={{ width: 300 }} placeholder={t('virtualNodes.valueHint')} />
                        </Form.Item>
                      )
                    }
                  </Form.Item>
                  <MinusCircleOutlined onClick={() => remove(field.name)} />
                </Space>
              ))}
              <Button type="dashed" onClick={() => add({ type: 'ip' })} icon={<PlusOutlined />}>
                {t('virtualNodes.addRecord')}
              </Button>
              <Form.ErrorList errors={errors} />
            </Form.Item>
          )}
        </Form.List>
        <Form.Item name="memo" label={t('virtualNodes.memo')} rules={[zodRule(createVirtualNodeBody.shape.memo, t('validation.wrongFormat'))]}>
          <Input.TextArea rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
