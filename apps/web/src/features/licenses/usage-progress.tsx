import { Progress, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ClientLicense } from './queries';

type Usage = ClientLicense['usage'];
export type UsageKind = keyof Usage;
export const USAGE_ORDER: UsageKind[] = ['site', 'domain', 'zone', 'node', 'port', 'autoSSL'];

/** One count against its limit; a limit of 0 is unlimited (spec §9), so its bar stays empty. */
export function UsageProgress({ used, limit, size }: { used: number; limit: number; size?: 'small' }) {
  const { t } = useTranslation();
  const percent = limit ? Math.min(100, Math.round((used / limit) * 100)) : 0;
  const text = `${used} / ${limit ? limit : t('licenses.unlimited')}`;
  return (
    <Progress
      percent={percent}
      size={size}
      status={limit && used >= limit ? 'exception' : 'normal'}
      format={() => text}
      style={{ minWidth: size ? 120 : 260 }}
    />
  );
}

/** Every count of a license against its limit, one bar each. */
export function UsageBars({ usage }: { usage: Usage }) {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="license-usage">
      {USAGE_ORDER.map((kind) => (
        <div key={kind} data-testid={`usage-${kind}`}>
          <Typography.Text>{t(`licenses.usage.${kind}`)}</Typography.Text>
          <UsageProgress used={usage[kind].used} limit={usage[kind].limit} />
        </div>
      ))}
    </Space>
  );
}
