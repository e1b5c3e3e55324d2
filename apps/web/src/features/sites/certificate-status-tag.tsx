import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Certificate } from './queries';

const LOOK = {
  valid: { color: 'green', label: 'statusValid' },
  expired: { color: 'red', label: 'statusExpired' },
  notYetValid: { color: 'orange', label: 'statusNotYetValid' },
} as const;

export function CertificateStatusTag({ status }: { status: Certificate['status'] }) {
  const { t } = useTranslation();
  return <Tag color={LOOK[status].color}>{t(`certificates.${LOOK[status].label}`)}</Tag>;
}
