import { Alert, Descriptions, Form, InputNumber, Modal, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { agentProtocol } from '@edgekeep/contract';
import { toast } from '../../app/feedback';
import { nodeCalls, useNodesChange, type Node, type NodeGeneva, type NodeMonitor } from './queries';

/** The nodes to set; with one `node`, the form starts from its values, else from the defaults. */
type Props = { ids: number[]; node?: Node; onDone?: () => void; onClose: () => void };

const useSave = <V,>(props: Props, save: (ids: number[], v: V) => Promise<unknown>) => {
  const { t } = useTranslation();
  return useNodesChange(
    (v: V) => save(props.ids, v),
    () => {
      toast.success(t('infra.updateSuccess'));
      props.onDone?.();
      props.onClose();
    },
  );
};

const percentItem = (name: keyof NodeMonitor, label: string) => (
  <Form.Item name={name} label={label} rules={[{ required: true }]}>
    <InputNumber min={1} max={100} precision={0} suffix="%" style={{ width: '100%' }} />
  </Form.Item>
);

/** CPU, memory and disk thresholds: a node over one gets status error and, if chosen, leaves the DNS resolution. */
export function NodeMonitorModal(props: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<NodeMonitor>();
  const save = useSave(props, nodeCalls.setMonitor);
  const { node } = props;
  return (
    <Modal open title={t('nodeExtras.monitorTitle', { count: props.ids.length })} okText={t('common.submit')} cancelText={t('infra.cancel')} onOk={() => form.submit()} onCancel={props.onClose} confirmLoading={save.isPending}>
      {node?.monitorBreach ? <Alert type="error" showIcon title={t('nodeExtras.breach', { what: node.monitorBreach })} style={{ marginBottom: 16 }} /> : null}
      <Form<NodeMonitor> form={form} layout="vertical" initialValues={node?.monitor ?? agentProtocol.MONITOR_DEFAULT} onFinish={(v) => save.mutate(v)}>
        <Form.Item name="enabled" label={t('nodeExtras.monitorEnabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        {percentItem('cpuPercent', t('nodeExtras.cpuThreshold'))}
        {percentItem('memoryPercent', t('nodeExtras.memoryThreshold'))}
        {percentItem('diskPercent', t('nodeExtras.diskThreshold'))}
        <Form.Item name="removeFromResolution" label={t('nodeExtras.removeFromResolution')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function GenevaText({ value: g }: { value: NodeGeneva | null }) {
  const { t } = useTranslation();
  return g ? `${t(g.enabled ? 'common.yes' : 'common.no')} · ${g.version} · ${t('nodeExtras.windowSize')} ${g.windowSize}` : t('nodeExtras.notReported');
}

/** The Geneva window (v1: 1 to 60, v2: 1), with what the node's agent reports holding beside it. */
export function NodeGenevaModal(props: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<NodeGeneva>();
  const { node } = props;
  const initial = node?.geneva ?? agentProtocol.GENEVA_DEFAULT;
  const version = Form.useWatch('version', form) ?? initial.version;
  const save = useSave(props, nodeCalls.setGeneva);
  const range = version === 'v1' ? agentProtocol.GENEVA_V1_WINDOW : { min: agentProtocol.GENEVA_V2_WINDOW, max: agentProtocol.GENEVA_V2_WINDOW };
  return (
    <Modal open title={t('nodeExtras.genevaTitle', { count: props.ids.length })} okText={t('common.submit')} cancelText={t('infra.cancel')} onOk={() => form.submit()} onCancel={props.onClose} confirmLoading={save.isPending}>
      {node ? (
        <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
          <Descriptions.Item label={t('nodeExtras.desired')}><GenevaText value={node.geneva} /></Descriptions.Item>
          <Descriptions.Item label={t('nodeExtras.reported')}><GenevaText value={node.genevaReported} /></Descriptions.Item>
        </Descriptions>
      ) : null}
      <Form<NodeGeneva>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={(v) => save.mutate(v)}
        onValuesChange={(changed: Partial<NodeGeneva>) => changed.version === 'v2' && form.setFieldValue('windowSize', agentProtocol.GENEVA_V2_WINDOW)}
      >
        <Form.Item name="enabled" label={t('nodeExtras.genevaEnabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="version" label={t('nodeExtras.genevaVersion')}>
          <Select options={['v1', 'v2'].map((v) => ({ value: v, label: v }))} />
        </Form.Item>
        <Form.Item name="windowSize" label={t('nodeExtras.windowSize')} extra={t('nodeExtras.windowHint')} rules={[{ required: true }, { type: 'number', min: range.min, max: range.max, message: t('nodeExtras.windowRange', range) }]}>
          <InputNumber min={range.min} max={range.max} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
