import { Card, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSelf } from '../../app/use-self';
import { useTier } from '../../app/use-tier';

/** The client's DNS setting: for now, which DNS type the account has. */
export default function DnsSettingPage() {
  const { t } = useTranslation();
  const self = useSelf(useTier()).data!;
  return (
    <Card title={t('dnsSetting.title')}>
      <Descriptions bordered column={1} data-testid="dns-type">
        <Descriptions.Item label={t('dnsSetting.current')}>
          {self.dnsType ?? <Typography.Text type="secondary">{t('dnsSetting.notSet')}</Typography.Text>}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
