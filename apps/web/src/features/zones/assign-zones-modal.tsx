import { Checkbox, Form, Modal, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { AccountPicker } from '../client-sites/account-picker';
import { useAssignZones, useSubClientZones } from './queries';
import { useZoneOptions } from './use-meta-zones';

/** Choose a sub-client, then the zones it may use (the chosen set replaces the old one). */
export function AssignZonesModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const zones = useZoneOptions();
  const [clientId, setClientId] = useState<number>();
  const [zoneIDs, setZoneIDs] = useState<number[]>([]);
  const current = useSubClientZones(clientId);
  useEffect(() => setZoneIDs(current.data?.zoneIDs ?? []), [current.data]);
  const save = useAssignZones();
  const submit = () =>
    save.mutate(
      { clientId: clientId!, zoneIDs },
      {
        onSuccess: () => {
          toast.success(t('infra.updateSuccess'));
          onClose();
        },
      },
    );
  return (
    <Modal
      open
      title={t('zones.assign')}
      okText={t('common.submit')}
      cancelText={t('infra.cancel')}
      okButtonProps={{ disabled: clientId === undefined || !current.data }}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={save.isPending}
    >
      <Form layout="vertical">
        <Form.Item label={t('zones.subClient')} required>
          <AccountPicker auth="client" value={clientId} onChange={setClientId} placeholder={t('clientSites.searchUser')} style={{ width: '100%' }} />
        </Form.Item>
        {clientId !== undefined ? (
          <Form.Item label={t('zones.assignedZones')}>
            {current.data ? <Checkbox.Group options={zones} value={zoneIDs} onChange={(v) => setZoneIDs(v as number[])} /> : <Spin />}
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}
