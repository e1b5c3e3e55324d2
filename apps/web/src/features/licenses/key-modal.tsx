import { DownloadOutlined } from '@ant-design/icons';
import { Button, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { License } from './queries';
import { saveText } from '../../lib/save-text';

/** The signed key of a license, with a copy button, and as a key file for an offline client. */
export function KeyModal({ license, onClose }: { license?: License; onClose: () => void }) {
  const { t } = useTranslation();
  const key = license?.key ?? '';
  return (
    <Modal
      open={!!license}
      title={t('licenses.keyTitle', { name: license?.name ?? '' })}
      onCancel={onClose}
      width={720}
      footer={
        <Button icon={<DownloadOutlined />} onClick={() => saveText(`license-${license?.id}.key`, key)}>
          {t('licenses.downloadKey')}
        </Button>
      }
    >
      <Typography.Paragraph
        copyable={{ text: key, tooltips: [t('licenses.copy'), t('licenses.copied')] }}
        code
        style={{ wordBreak: 'break-all' }}
        data-testid="license-key"
      >
        {key}
      </Typography.Paragraph>
    </Modal>
  );
}
