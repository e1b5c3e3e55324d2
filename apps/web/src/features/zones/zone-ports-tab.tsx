import type { FormRule } from 'antd';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSaveZoneSetting } from './queries';
import { SettingCard, type ZoneTabProps } from './zone-setting-form';

type PortsForm = { httpPorts: string[]; httpsPorts: string[] };

const isPort = (v: string) => /^\d{1,5}$/.test(v) && Number(v) >= 1 && Number(v) <= 65535;

/** The HTTP and HTTPS ports every node of the zone listens on. */
export function ZonePortsTab({ zoneID, value, canEdit }: ZoneTabProps) {
  const { t } = useTranslation();
  const save = useSaveZoneSetting(zoneID, 'ports');
  const portRule: FormRule = {
    validator: (_, list: string[] | undefined) =>
      list?.length && list.every(isPort) && new Set(list).size === list.length ? Promise.resolve() : Promise.reject(new Error(t('zones.portInvalid'))),
  };
  const initial: PortsForm = { httpPorts: value.ports.httpPorts.map(String), httpsPorts: value.ports.httpsPorts.map(String) };
  return (
    <SettingCard<PortsForm>
      title={t('zones.ports')}
      extra={t('zones.portsHint')}
      canEdit={canEdit}
      initial={initial}
      saving={save.isPending}
      onSave={(v) => save.mutate({ httpPorts: v.httpPorts.map(Number), httpsPorts: v.httpsPorts.map(Number) })}
    >
      <Form.Item name="httpPorts" label={t('zones.httpPorts')} rules={[portRule]}>
        <Select mode="tags" open={false} tokenSeparators={[',', ' ']} />
      </Form.Item>
      <Form.Item name="httpsPorts" label={t('zones.httpsPorts')} rules={[portRule]}>
        <Select mode="tags" open={false} tokenSeparators={[',', ' ']} />
      </Form.Item>
    </SettingCard>
  );
}
