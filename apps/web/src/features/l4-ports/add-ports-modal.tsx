import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { l4PortSchemas } from '@edgekeep/contract';
import { Button, Form, Input, Modal, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';
import { ORIGIN_DEFAULTS, OriginFields } from '../sites/origin-fields';
import { useSiteMutation } from '../sites/use-site-mutation';
import { portKeys, ports, type PortUpstreamInput } from './queries';

type Fields = { ports: string; upstreams: PortUpstreamInput[] };

/** Checks the port lines as the API will: 1000–65000, not reserved, no duplicates (spec §5). */
export function portLinesError(text: string): 'portInvalid' | 'portNotAllowed' | 'duplicate' | undefined {
  const parsed = l4PortSchemas.batchCreateBody.shape.ports.safeParse(text);
  if (parsed.success) return undefined;
  const message = parsed.error.issues[0]?.message ?? '';
  if (message.startsWith('Port is not valid')) return 'portInvalid';
  return message === 'Data already exists!' ? 'duplicate' : 'portNotAllowed';
}

/** Adds layer-4 ports in batch (one per line or a from-to range), all forwarding to the same origins. */
export function AddPortsModal({ siteId, onClose }: { siteId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Fields>();
  const create = useSiteMutation({
    fn: (v: Fields) => ports.batchCreate(siteId, { ports: v.ports, upstreams: v.upstreams.map((u) => ({ ...u, host: u.host.trim() })) }),
    success: 'createSuccess',
    refresh: [portKeys.list(siteId)],
    done: onClose,
  });
  const portsRule = {
    validator: (_: unknown, v?: string) => {
      const error = v ? portLinesError(v) : undefined;
      return error ? Promise.reject(new Error(t(`l4Ports.${error}`))) : Promise.resolve();
    },
  };
  return (
    <Modal open width={720} title={t('l4Ports.add')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={create.isPending}>
      <Form<Fields>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ upstreams: [ORIGIN_DEFAULTS] }}
        onFinish={(v) => create.mutate(v)}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
      >
        <Form.Item name="ports" label={t('l4Ports.portsLines')} extra={t('l4Ports.portsHint')} rules={[rules.required, portsRule]}>
          <Input.TextArea rows={4} placeholder={'2222\n3000-3005'} />
        </Form.Item>
        <Form.List name="upstreams">
          {(fields, ops) => (
            <Space direction="vertical" style={{ width: '100%' }}>
              {fields.map((field) => (
                <Space key={field.key} align="start" style={{ width: '100%' }} styles={{ item: { flex: 1 } }}>
                  <OriginFields name={[field.name]} />
                  {fields.length > 1 ? (
                    <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('sites.remove')} onClick={() => ops.remove(field.name)} style={{ marginTop: 30 }} />
                  ) : null}
                </Space>
              ))}
              <Button icon={<PlusOutlined />} onClick={() => ops.add(ORIGIN_DEFAULTS)}>
                {t('domains.addOrigin')}
              </Button>
            </Space>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
