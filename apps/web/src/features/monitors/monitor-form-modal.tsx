import { useMutation, useQuery } from '@tanstack/react-query';
import { Form, Input, InputNumber, Modal, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { MAX_PAGE_SIZE } from '@edgekeep/contract/constants';
import { monitorsApi, type Monitor, type MonitorBody } from '../../api/monitors';
import { toast } from '../../app/feedback';
import { queryClient } from '../../app/query-client';
import { useFormRules } from '../../components/form-rules';

type Props = { monitor?: Monitor; onClose: () => void };
type Values = Omit<MonitorBody, 'id'> & { nodeIDs?: number[] };

const TYPES = ['status', 'content', 'tcp', 'ping'] as const;

/** Without a monitor: start monitoring nodes that have none. With one: change its probe. */
export function MonitorFormModal({ monitor, onClose }: Props) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Values>();
  const type = Form.useWatch('type', form) ?? monitor?.type;
  const unmonitored = useQuery({ queryKey: ['monitors', 'notInit'], queryFn: () => monitorsApi.notInit({ pageSize: MAX_PAGE_SIZE }), enabled: !monitor });
  const save = useMutation({
    mutationFn: (v: Values) => (monitor ? monitorsApi.update({ ...v, id: monitor.id }) : monitorsApi.init(v.nodeIDs ?? [])),
    onSuccess: () => {
      toast.success(t(monitor ? 'infra.updateSuccess' : 'infra.createSuccess'));
      void queryClient.invalidateQueries({ queryKey: ['monitors'] });
      onClose();
    },
  });
  const urlRule = { pattern: /^(http:\/\/|\{host\})\S*$/, message: t('monitors.urlRule') };
  return (
    <Modal open title={t(monitor ? 'infra.edit' : 'monitors.add')} okText={t('common.submit')} cancelText={t('infra.cancel')} onOk={() => form.submit()} onCancel={onClose} confirmLoading={save.isPending}>
      <Form<Values> form={form} layout="vertical" initialValues={monitor} onFinish={(v) => save.mutate(v)} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        {monitor ? (
          <>
            <Form.Item name="type" label={t('monitors.type')} rules={[rules.required]}>
              <Select options={TYPES.map((v) => ({ value: v, label: t(`monitors.types.${v}`) }))} />
            </Form.Item>
            {type === 'status' || type === 'content' ? (
              <Form.Item name="url" label="URL" rules={[rules.required, urlRule]} extra={t('monitors.urlHint')}>
                <Input />
              </Form.Item>
            ) : null}
            {type === 'status' ? (
              <Form.Item name="statusCode" label={t('monitors.statusCode')} rules={[rules.required, { pattern: /^\d{3}$/, message: t('monitors.statusCodeRule') }]}>
                <Input maxLength={3} />
              </Form.Item>
            ) : null}
            {type === 'content' ? (
              <Form.Item name="content" label={t('monitors.content')} rules={[rules.required, { max: 256, message: t('validation.wrongFormat') }]}>
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
            <Select mode="multiple" showSearch={{ optionFilterProp: 'label' }} loading={unmonitored.isLoading} options={(unmonitored.data?.data ?? []).map((n) => ({ value: n.id, label: `${n.name} (${n.ip})` }))} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
