import { Card, Space, Statistic, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/use-self';
import { useSiteMutation } from '../sites/use-site-mutation';
import { firewallKeys, setAdvance, useFirewallSettings } from './queries';

const SHOWN = ['blacklist', 'whitelist', 'geo', 'userAgent', 'antiHeader', 'limitReq', 'frequency', 'abuseIP', 'l4Blacklist', 'l4Whitelist', 'l4Position', 'l4LimitConn'];

/** The advanced WAF/ACL switch and the enabled/total count of each list ('---' while loading). */
export function SettingsBar({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const editable = useCan()('firewall.edit');
  const settings = useFirewallSettings(siteId);
  const advance = useSiteMutation({ fn: (enabled: boolean) => setAdvance(siteId, enabled), success: 'updateSuccess', refresh: [firewallKeys.settings(siteId)] });
  const lists = settings.data?.lists ?? {};
  const shown = SHOWN.filter((k) => k in lists || !settings.data);
  return (
    <Card size="small">
      <Space wrap size="large" align="start">
        <Space direction="vertical" size={4}>
          <Typography.Text type="secondary">{t('firewall.advance')}</Typography.Text>
          <Switch
            checked={settings.data?.advance}
            loading={settings.isLoading || advance.isPending}
            disabled={!editable || !settings.data}
            onChange={(v) => advance.mutate(v)}
            data-testid="advance-switch"
          />
        </Space>
        {shown.map((k) => (
          <Statistic
            key={k}
            title={t(`firewall.tabs.${k as 'geo'}`)}
            value={lists[k] ? `${lists[k].enabled} / ${lists[k].total}` : '---'}
            valueStyle={{ fontSize: 16 }}
          />
        ))}
        <Statistic title={t('firewall.blockedNow')} value={settings.data ? settings.data.blockedIPs : '---'} valueStyle={{ fontSize: 16 }} />
      </Space>
    </Card>
  );
}
