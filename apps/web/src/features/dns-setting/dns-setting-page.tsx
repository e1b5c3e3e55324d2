import { Alert, Card, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { DnsSettingForm } from './dns-setting-form';
import { DnsTasks } from './dns-tasks';
import { useDnsSetting } from './queries';

/** systemManagement/dnsSetting (spec §2, §3 DNS config): the provider that answers the site CNAMEs, and its unprocessed changes. */
export default function DnsSettingPage() {
  const { t } = useTranslation();
  const setting = useDnsSetting();
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card title={t('dnsSetting.title')} loading={setting.isPending}>
        {setting.data && !setting.data.type ? <Alert type="info" showIcon message={t('dnsSetting.notSet')} style={{ marginBottom: 16 }} data-testid="dns-not-set" /> : null}
        {setting.data ? <DnsSettingForm setting={setting.data} /> : null}
      </Card>
      {setting.data?.type ? <DnsTasks /> : null}
    </Space>
  );
}
