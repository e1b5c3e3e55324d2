import type { FormRule } from 'antd';
import { Form, Input, InputNumber, Space, Switch, type InputNumberProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormRules } from '../../components/form-rules';
import { useSaveZoneSetting } from './queries';
import { SettingCard, type ZoneTabProps } from './zone-setting-form';

type WorkerForm = { workerProcesses: string; workerConnections: number };

/** A whole number of seconds; Form.Item hands it value and onChange. */
const Seconds = (props: InputNumberProps<number>) => <InputNumber precision={0} style={{ width: '100%' }} {...props} />;

function WorkerCard({ zoneID, value, canEdit }: ZoneTabProps) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const save = useSaveZoneSetting(zoneID, 'nginx/worker', t('zones.setNginxWorkerSuccess'));
  const processesRule: FormRule = {
    validator: (_, v: string) =>
      !v || v === 'auto' || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 256) ? Promise.resolve() : Promise.reject(new Error(t('validation.wrongFormat'))),
  };
  const initial: WorkerForm = { workerProcesses: String(value.nginxWorker.workerProcesses), workerConnections: value.nginxWorker.workerConnections };
  return (
    <SettingCard<WorkerForm>
      title={t('zones.nginxWorker')}
      canEdit={canEdit}
      initial={initial}
      saving={save.isPending}
      onSave={(v) => save.mutate({ workerProcesses: v.workerProcesses === 'auto' ? 'auto' : Number(v.workerProcesses), workerConnections: v.workerConnections })}
    >
      <Form.Item name="workerProcesses" label={t('zones.workerProcesses')} rules={[rules.required, processesRule]}>
        <Input />
      </Form.Item>
      <Form.Item name="workerConnections" label={t('zones.workerConnections')} rules={[rules.required]}>
        <InputNumber min={64} max={1_000_000} precision={0} style={{ width: '100%' }} />
      </Form.Item>
    </SettingCard>
  );
}

function HttpCard({ zoneID, value, canEdit }: ZoneTabProps) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const save = useSaveZoneSetting(zoneID, 'nginx/http', t('zones.setNginxHttpSuccess'));
  return (
    <SettingCard title={t('zones.nginxHttp')} canEdit={canEdit} initial={value.nginxHttp} saving={save.isPending} onSave={(v) => save.mutate(v)}>
      <Form.Item name="clientMaxBodySize" label={t('zones.clientMaxBodySize')} rules={[rules.required]}>
        <InputNumber min={0} max={102_400} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="keepaliveTimeout" label={t('zones.keepaliveTimeout')} rules={[rules.required]}>
        <Seconds min={0} max={3600} />
      </Form.Item>
    </SettingCard>
  );
}

function StreamCard({ zoneID, value, canEdit }: ZoneTabProps) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const save = useSaveZoneSetting(zoneID, 'nginx/stream', t('zones.setNginxStreamSuccess'));
  return (
    <SettingCard title={t('zones.nginxStream')} canEdit={canEdit} initial={value.nginxStream} saving={save.isPending} onSave={(v) => save.mutate(v)}>
      <Form.Item name="proxyConnectTimeout" label={t('zones.connectTimeout')} rules={[rules.required]}>
        <Seconds min={1} max={600} />
      </Form.Item>
      <Form.Item name="proxyTimeout" label={t('zones.streamTimeout')} rules={[rules.required]}>
        <Seconds min={1} max={86_400} />
      </Form.Item>
    </SettingCard>
  );
}

function CustomCard({ zoneID, value, canEdit }: ZoneTabProps) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const save = useSaveZoneSetting(zoneID, 'nginx/custom');
  return (
    <SettingCard formName="custom" title={t('zones.nginxCustom')} extra={t('zones.nginxCustomHint')} canEdit={canEdit} initial={value.nginxCustom} saving={save.isPending} onSave={(v) => save.mutate(v)}>
      <Form.Item name="connectTimeout" label={t('zones.connectTimeout')} rules={[rules.required]}>
        <Seconds min={1} max={600} />
      </Form.Item>
      <Form.Item name="sendTimeout" label={t('zones.sendTimeout')} rules={[rules.required]}>
        <Seconds min={1} max={3600} />
      </Form.Item>
      <Form.Item name="readTimeout" label={t('zones.readTimeout')} rules={[rules.required]}>
        <Seconds min={1} max={3600} />
      </Form.Item>
      <Form.Item name="keepaliveTimeout" label={t('zones.originKeepalive')} rules={[rules.required]}>
        <Seconds min={1} max={3600} />
      </Form.Item>
      <Form.Item name="proxyBuffering" label={t('zones.proxyBuffering')} valuePropName="checked">
        <Switch />
      </Form.Item>
    </SettingCard>
  );
}

/** The nginx forms of the zone: worker, http, stream (layer 4) and custom proxy-pass; each saved on its own. */
export function ZoneNginxTab(props: ZoneTabProps) {
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <WorkerCard {...props} />
      <HttpCard {...props} />
      <StreamCard {...props} />
      <CustomCard {...props} />
    </Space>
  );
}
