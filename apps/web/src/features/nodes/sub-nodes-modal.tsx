import { useMutation } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Space, Table, type FormRule, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { infraSchemas } from '@edgekeep/contract';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';
import { formatDate } from '../../lib/dates';
import { RemoveButton } from '../../components/remove-button';
import { nodeCalls, useSubNodes, type Node, type SubNode } from './queries';

type Values = { ip: string; memo?: string };

/** The node's sub nodes: further addresses of its machine that serve and resolve too. */
export function SubNodesModal({ node, canEdit, onClose }: { node: Node; canEdit: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Values>();
  const list = useSubNodes(node.id);
  const add = useMutation({
    mutationFn: (v: Values) => nodeCalls.addSubNode(node.id, v),
    onSuccess: () => {
      toast.success(t('infra.updateSuccess'));
      form.resetFields();
      void list.refetch();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => nodeCalls.removeSubNodes(node.id, [id]),
    onSuccess: () => {
      toast.success(t('infra.removeSuccess'));
      void list.refetch();
    },
  });
  const ipRule: FormRule = {
    validator: (_, value) => (!value || infraSchemas.addSubNodeBody.shape.ip.safeParse(value).success ? Promise.resolve() : Promise.reject(new Error(t('nodeExtras.ipFormat')))),
  };
  const columns: TableColumnsType<SubNode> = [
    { key: 'ip', dataIndex: 'ip', title: t('nodes.ip') },
    { key: 'memo', dataIndex: 'memo', title: t('infra.memo'), ellipsis: true },
    { key: 'createdAt', dataIndex: 'createdAt', title: t('nodeExtras.addedAt'), render: (v: string) => formatDate(v) },
    ...(canEdit
      ? [
          {
            key: 'actions',
            title: t('infra.actions'),
            render: (_: unknown, s: SubNode) => (
              <RemoveButton name={s.ip} onConfirm={() => remove.mutate(s.id)} />
            ),
          },
        ]
      : []),
  ];
  return (
    <Modal open title={t('nodeExtras.subNodesTitle', { name: node.name })} footer={null} onCancel={onClose} width={640}>
      <Space orientation="vertical" style={{ width: '100%' }}>
        {canEdit ? (
          <Form<Values> form={form} layout="inline" onFinish={(v) => add.mutate(v)}>
            <Form.Item name="ip" rules={[rules.required, ipRule]}>
              <Input placeholder={t('nodeExtras.subNodeIp')} data-testid="sub-node-ip" />
            </Form.Item>
            <Form.Item name="memo">
              <Input placeholder={t('infra.memo')} />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={add.isPending}>
              {t('nodeExtras.addSubNode')}
            </Button>
          </Form>
        ) : null}
        <Table<SubNode> rowKey="id" size="small" columns={columns} dataSource={list.data ?? []} loading={list.isLoading} pagination={false} locale={{ emptyText: t('nodeExtras.noSubNodes') }} />
      </Space>
    </Modal>
  );
}
