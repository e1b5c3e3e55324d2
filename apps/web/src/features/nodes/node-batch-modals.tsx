import { Form, Input, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TEXT_FIELD_MAX } from '@edgekeep/contract/constants';
import { toast } from '../../app/feedback';
import { useZoneOptions } from '../zones/use-meta-zones';
import { nodeCalls, useNodesChange } from './queries';

type Props = { ids: number[]; onDone: () => void; onClose: () => void };

const finish = (text: string, props: Props) => () => {
  toast.success(text);
  props.onDone();
  props.onClose();
};

/** Set the memo of the chosen nodes. */
export function NodeMemoModal(props: Props) {
  const { t } = useTranslation();
  const [memo, setMemo] = useState('');
  const save = useNodesChange(() => nodeCalls.setMemo(props.ids, memo), finish(t('infra.updateSuccess'), props));
  const tooLong = memo.length > TEXT_FIELD_MAX;
  return (
    <Modal open title={t('nodes.setMemo')} okText={t('common.submit')} cancelText={t('infra.cancel')} okButtonProps={{ disabled: tooLong }} onOk={() => save.mutate()} onCancel={props.onClose} confirmLoading={save.isPending}>
      <Form layout="vertical">
        <Form.Item label={t('infra.memo')} validateStatus={tooLong ? 'error' : undefined} help={tooLong ? t('validation.wrongFormat') : undefined}>
          <Input.TextArea rows={3} value={memo} onChange={(e) => setMemo(e.target.value)} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Move the chosen nodes to another zone of the client. */
export function MoveZoneModal(props: Props) {
  const { t } = useTranslation();
  const zones = useZoneOptions();
  const [zoneID, setZoneID] = useState<number>();
  const save = useNodesChange(() => nodeCalls.move(props.ids, zoneID!), finish(t('infra.updateSuccess'), props));
  return (
    <Modal open title={t('nodes.moveZone')} okText={t('common.submit')} cancelText={t('infra.cancel')} okButtonProps={{ disabled: zoneID === undefined }} onOk={() => save.mutate()} onCancel={props.onClose} confirmLoading={save.isPending}>
      <Form layout="vertical">
        <Form.Item label={t('infra.zone')} required>
          <Select options={zones} value={zoneID} onChange={setZoneID} placeholder={t('infra.chooseZone')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
