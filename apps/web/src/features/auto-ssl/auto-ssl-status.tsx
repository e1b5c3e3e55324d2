import { LoadingOutlined } from '@ant-design/icons';
import type { AutoCertificate } from '@edgekeep/contract/schemas/auto-certificates';
import { Alert, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS = { pending: 'default', processing: 'processing', completed: 'success', failed: 'error' } as const;

/** §4's auto-certificate state: pending (auto SSL pending), processing (spinning while the order runs), completed, failed (apply failed). */
export function AutoSslStatusTag({ status, error }: { status: AutoCertificate['status']; error?: string | null }) {
  const { t } = useTranslation();
  const tag = (
    <Tag color={COLORS[status]} icon={status === 'processing' ? <LoadingOutlined /> : undefined}>
      {t(`autoSsl.status.${status}`)}
    </Tag>
  );
  return status === 'failed' && error ? <Tooltip title={error}>{tag}</Tooltip> : tag;
}

/** Why an auto certificate failed: the CA's own error, the hint that fits it first, then §8's other hints. */
export function AutoSslFailure({ error, hint }: Pick<AutoCertificate, 'error' | 'hint'>) {
  const { t } = useTranslation();
  if (!error) return null;
  const others = (['cname', 'overseas', 'ttl', 'wildcardDns', 'budget'] as const).filter((h) => h !== hint);
  return (
    <Alert
      type="error"
      showIcon
      message={<Typography.Text>{t('autoSsl.caError', { error })}</Typography.Text>}
      description={
        <ul style={{ margin: 0, paddingLeft: 16 }}>
          {hint && hint !== 'ca' ? <li><strong>{t(`autoSsl.hint.${hint}`)}</strong></li> : null}
          {others.map((h) => (
            <li key={h}>{t(`autoSsl.hint.${h}`)}</li>
          ))}
        </ul>
      }
    />
  );
}
