import { Alert, Modal, Spin, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { formatDate } from '../../lib/dates';
import { useIssueEnrolment, type Node } from './queries';

/** Issues a one-time enrolment token for the node and shows the one line to run on it. */
export function EnrolmentModal({ node, onClose }: { node: Node; onClose: () => void }) {
  const { t } = useTranslation();
  const issue = useIssueEnrolment(node.id, () => toast.success(t('nodes.nodeInitialSuccess')), onClose);
  const asked = useRef(false);
  const { mutate } = issue;
  // One token per opening, also when an effect runs twice in development.
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    mutate();
  }, [mutate]);
  const enrolment = issue.data;
  return (
    <Modal open width={720} title={t('nodes.enrolTitle', { name: node.name })} footer={null} onCancel={onClose}>
      {enrolment ? (
        <div data-testid="enrolment">
          <Typography.Paragraph>{t('nodes.enrolHint')}</Typography.Paragraph>
          <Typography.Paragraph code copyable={{ text: enrolment.command }} style={{ wordBreak: 'break-all' }}>
            {enrolment.command}
          </Typography.Paragraph>
          <Alert type="info" showIcon title={t('nodes.enrolExpires', { time: formatDate(enrolment.expiresAt) })} />
        </div>
      ) : (
        <Spin />
      )}
    </Modal>
  );
}
