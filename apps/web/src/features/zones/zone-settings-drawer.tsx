import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Card, Drawer, Form, Input, InputNumber, Select, Space, Spin, type FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { infraApi } from '../../api/infra';
import type { NginxHttp, Zone, ZoneSettings } from '../../api/infra-types';
import { toast } from '../../app/feedback';
import { queryClient } from '../../app/query-client';
import { useCan } from '../../app/use-self';
import { useFormRules } from '../../components/form-rules';

type PortsForm = { httpPorts: string[]; httpsPorts: string[] };
type WorkerForm = { workerProcesses: string; workerConnections: number };

const isPort = (v: string) => /^\d{1,5}$/.test(v) && Number(v) >= 1 && Number(v) <= 65535;

/** A zone's ports and nginx forms; each form is saved on its own. */
export function ZoneSettingsDrawer({ zone, onClose }: { zone: Zone; onClose: () => void }) {
  const { t } = useTranslation();
  const canEdit = useCan()('zones.edit');
  const key = ['zoneSettings', zone.id];
  const settings = useQuery({ queryKey: key, queryFn: () => infraApi.zoneSettings(zone.id), staleTime: 0 });
  const saved = (text: string) => (next: ZoneSettings) => {
    queryClient.setQueryData(key, next);
    toast.success(text);
  };
  return (
    <Drawer open width={560} title={t('zones.settingsTitle', { name: zone.name })} onClose={onClose} destroyOnHidden>
      {settings.data ? (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          <PortsCard canEdit={canEdit} zoneID={zone.id} value={settings.data} onSaved={saved(t('infra.setSuccess'))} />
          <WorkerCard canEdit={canEdit} zoneID={zone.id} value={settings.data} onSaved={saved(t('zones.setNginxWorkerSuccess'))} />
          <HttpCard canEdit={canEdit} zoneID={zone.id} value={settings.data} onSaved={saved(t('zones.setNginxHttpSuccess'))} />
        </Space>
      ) : (
        <Spin />
      )}
    </Drawer>
  );
}

type CardProps = { canEdit: boolean; zoneID: number; value: ZoneSettings; onSaved: (next: ZoneSettings) => void };

function PortsCard({ canEdit, zoneID, value, onSaved }: CardProps) {
  const { t } = useTranslation();
  const save = useMutation({ mutationFn: (v: PortsForm) => infraApi.setZonePorts(zoneID, { httpPorts: v.httpPorts.map(Number), httpsPorts: v.httpsPorts.map(Number) }), onSuccess: onSaved });
  const portRule: FormRule = {
    validator: (_, list: string[] | undefined) =>
      list?.length && list.every(isPort) && new Set(list).size === list.length ? Promise.resolve() : Promise.reject(new Error(t('zones.portInvalid'))),
  };
  const initial: PortsForm = { httpPorts: value.ports.httpPorts.map(String), httpsPorts: value.ports.httpsPorts.map(String) };
  return (
    <Card title={t('zones.ports')} size="small" extra={t('zones.portsHint')}>
      <Form<PortsForm> layout="vertical" disabled={!canEdit} initialValues={initial} onFinish={(v) => save.mutate(v)} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        <Form.Item name="httpPorts" label={t('zones.httpPorts')} rules={[portRule]}>
          <Select mode="tags" open={false} tokenSeparators={[',', ' ']} />
        </Form.Item>
        <Form.Item name="httpsPorts" label={t('zones.httpsPorts')} rules={[portRule]}>
          <Select mode="tags" open={false} tokenSeparators={[',', ' ']} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}

function WorkerCard({ canEdit, zoneID, value, onSaved }: CardProps) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const save = useMutation({
    mutationFn: (v: WorkerForm) =>
      infraApi.setNginxWorker(zoneID, { workerProcesses: v.workerProcesses === 'auto' ? 'auto' : Number(v.workerProcesses), workerConnections: v.workerConnections }),
    onSuccess: onSaved,
  });
  const processesRule: FormRule = {
    validator: (_, v: string) =>
      !v || v === 'auto' || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 256) ? Promise.resolve() : Promise.reject(new Error(t('validation.wrongFormat'))),
  };
  const initial: WorkerForm = { workerProcesses: String(value.nginxWorker.workerProcesses), workerConnections: value.nginxWorker.workerConnections };
  return (
    <Card title={t('zones.nginxWorker')} size="small">
      <Form<WorkerForm> layout="vertical" disabled={!canEdit} initialValues={initial} onFinish={(v) => save.mutate(v)} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        <Form.Item name="workerProcesses" label={t('zones.workerProcesses')} rules={[rules.required, processesRule]}>
          <Input />
        </Form.Item>
        <Form.Item name="workerConnections" label={t('zones.workerConnections')} rules={[rules.required]}>
          <InputNumber min={64} max={1_000_000} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}

function HttpCard({ canEdit, zoneID, value, onSaved }: CardProps) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const save = useMutation({ mutationFn: (v: NginxHttp) => infraApi.setNginxHttp(zoneID, v), onSuccess: onSaved });
  return (
    <Card title={t('zones.nginxHttp')} size="small">
      <Form<NginxHttp> layout="vertical" disabled={!canEdit} initialValues={value.nginxHttp} onFinish={(v) => save.mutate(v)} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        <Form.Item name="clientMaxBodySize" label={t('zones.clientMaxBodySize')} rules={[rules.required]}>
          <InputNumber min={0} max={102_400} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="keepaliveTimeout" label={t('zones.keepaliveTimeout')} rules={[rules.required]}>
          <InputNumber min={0} max={3600} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="cacheSize" label={t('zones.cacheSize')} rules={[rules.required]}>
          <InputNumber min={16} max={10_000_000} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}
