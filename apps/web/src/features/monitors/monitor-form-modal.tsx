import { Form, Input, InputNumber, Modal, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { monitorUrl, updateMonitorBody } from '@edgekeep/contract/schemas/monitors';
import { toast } from '../../app/feedback';
import { useFormRules, zodRule } from '../../components/form-rules';
import { useSaveMonitor, useUnmonitoredNodes, type Monitor, type MonitorBody } from './queries';

type Props = { monitor?: Monitor; onClose: () => void };
type Values = Omit<MonitorBody, 'id'> & { nodeIDs?: number[] };

const TYPES = ['status', 'content', 'tcp', 'ping'] as const;

/** Without a monitor: start monitoring nodes that have none. With one: change its probe. */
export function MonitorFormModal({ monitor, onClose }: Props) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Values>();
  const type = Form.useWatch('type', form) ?? monitor?.type;
  const unmonitored = useUnmonitoredNodes(!monitor);
  const save = useSaveMonitor(monitor?.id);
  const submit = (v: Values) =>
    save.mutate(v, {
      onSuccess: () => {
        toast.success(t(monitor ? 'infra.updateSuccess' : 'infra.createSuccess'));
        onClose();
      },
    });
  const probe = updateMonitorBody.shape;
  return (
    <Modal open title={t(monitor ? 'infra.edit' : 'monitors.add')} okText={t('common.submit')} cancelText={t('infra.cancel')} onOk={() => form.submit()} onCancel={onClose} confirmLoading={save.isPending}>
      <Form<Values> form={form} layout="vertical" initialValues={monitor} onFinish={submit} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        {monitor ? (
          <>
            <Form.Item name="type" label={t('monitors.type')} rules={[rules.required]}>
              <Select options={TYPES.map((v) => ({ value: v, label: t(`monitors.types.${v}`) }))} />
            </Form.Item>
            {type === 'status' || type === 'content' ? (
              <Form.Item name="url" label="URL" rules={[rules.required, zodRule(monitorUrl, t('monitors.urlRule'))]} extra={t('monitors.urlHint')}>
                <Input />
              </Form.Item>
            ) : null}
            {type === 'status' ? (
              <Form.Item name="statusCode" label={t('monitors.statusCode')} rules={[rules.required, zodRule(probe.statusCode, t('monitors.statusCodeRule'))]}>
                <Input maxLength={3} />
              </Form.Item>
            ) : null}
            {type === 'content' ? (
              <Form.Item name="content" label={t('monitors.content')} rules={[rules.required, zodRule(probe.content, t('validation.wrongFormat'))]}>
                <Input />
              </Form.Item>
            ) : null}
            {type === 'tcp' ? (
              <Form.Item name="port" label={t('monitors.port')} rules={[rules.required]}>
                <InputNumber min={1} max={65535} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            ) : null}
            <Form.Item name="interval" label={t('monitors.interval')} rules={[rules.required]}>
              <InputNumber min={10} max={3600} precision={0} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="failureAction" label={t('monitors.failureAction')} rules={[rules.required]}>
              <Radio.Group options={[{ value: 'none', label: t('monitors.actionNone') }, { value: 'pause', label: t('monitors.actionPause') }]} />
            </Form.Item>
          </>
        ) : (
          <Form.Item name="nodeIDs" label={t('monitors.nodes')} rules={[rules.required]}>
            <Select mode="multiple" showSearch={{ optionFilterProp: 'label' }} loading={unmonitored.isLoading} options={(unmonitored.data ?? []).map((n) => ({ value: n.id, label: `${n.name} (${n.ip})` }))} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
