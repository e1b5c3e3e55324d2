import { edge } from '@edgekeep/contract';
import { Form, Input, InputNumber, Modal, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';
import { useSiteMutation } from '../sites/use-site-mutation';
import { anticc, anticcKeys, MODES, useAnticcFreqs, type AnticcInput, type AnticcRule } from './queries';

export function AnticcModal({ siteId, rule, onClose }: { siteId: number; rule?: AnticcRule; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<AnticcInput>();
  const freqs = useAnticcFreqs(siteId);
  const save = useSiteMutation({
    fn: (body: AnticcInput) => anticc.save(siteId, body, rule?.id),
    success: rule ? 'updateSuccess' : 'createSuccess',
    refresh: [anticcKeys.list(siteId)],
    done: onClose,
  });
  const regexRule = {
    validator: (_: unknown, v?: string) => {
      const problem = v ? edge.regexProblem(v) : undefined;
      return problem ? Promise.reject(new Error(t('advancedFirewall.regexRefused', { reason: problem }))) : Promise.resolve();
    },
  };
  const defaults = freqs.data?.defaults ?? { seconds: 10, times: 60 };
  const common = (values?: number[]) => (values?.length ? t('antiCC.common', { values: values.join(', ') }) : undefined);
  return (
    <Modal open title={t(rule ? 'antiCC.edit' : 'antiCC.add')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={save.isPending} width={640}>
      <Form<AnticcInput>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={rule ?? { urlRegex: '', seconds: defaults.seconds, times: defaults.times, type: 1, priority: 100, enabled: true }}
        onFinish={(v) => save.mutate({ ...v, urlRegex: v.urlRegex.trim() })}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
      >
        <Form.Item name="urlRegex" label={t('antiCC.urlRegex')} extra={t('antiCC.urlRegexHint')} rules={[rules.required, regexRule]}>
          <Input placeholder="^/login" style={{ fontFamily: 'monospace' }} data-testid="anticc-url" />
        </Form.Item>
        <Space size="large" wrap>
          <Form.Item name="seconds" label={t('antiCC.seconds')} rules={[rules.required]} extra={common(freqs.data?.seconds)}>
            <InputNumber min={1} max={3600} precision={0} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="times" label={t('antiCC.times')} rules={[rules.required]} extra={common(freqs.data?.times)}>
            <InputNumber min={1} max={1000000} precision={0} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="priority" label={t('advancedFirewall.priority')} rules={[rules.required]}>
            <InputNumber min={1} max={100000} />
          </Form.Item>
        </Space>
        <Form.Item name="type" label={t('antiCC.mode')} rules={[rules.required]}>
          <Select style={{ width: 240 }} options={Object.entries(MODES).map(([value, key]) => ({ value: Number(value), label: t(`antiCC.modes.${key}`) }))} />
        </Form.Item>
        <Form.Item name="enabled" label={t('advancedFirewall.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}
