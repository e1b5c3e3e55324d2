import { useMutation } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Popconfirm, Select, Space, Table, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { formatDate } from '../../lib/dates';
import { nodeCalls, useNodeCommands, type Node, type CommandKind, type NodeCommand } from './queries';

const KINDS: CommandKind[] = ['restart', 'reload', 'reset', 'upgrade', 'formatCache', 'clearCache', 'clearUrlCache', 'logRotate'];
const STATUS_COLORS: Record<NodeCommand['status'], string> = { queued: 'default', sent: 'processing', done: 'success', failed: 'error' };
const URL_LINE = /^https?:\/\/\S+$/;

/** Queue an action for the node and follow the results of its recent actions. */
export function NodeCommandsModal({ node, onClose }: { node: Node; onClose: () => void }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<CommandKind>('reload');
  const [urls, setUrls] = useState('');
  const commands = useNodeCommands(node.id);
  const urlList = urls.split('\n').map((u) => u.trim()).filter(Boolean);
  const urlsValid = urlList.length > 0 && urlList.every((u) => URL_LINE.test(u));
  const queue = useMutation({
    mutationFn: () => nodeCalls.command(node.id, { kind, urls: kind === 'clearUrlCache' ? urlList : undefined }),
    onSuccess: () => {
      toast.success(t(kind === 'upgrade' ? 'nodes.upgradeSent' : 'nodes.commandQueued'));
      void commands.refetch();
    },
  });
  const columns: TableColumnsType<NodeCommand> = [
    { key: 'kind', dataIndex: 'kind', title: t('nodes.commands'), render: (k: CommandKind) => t(`nodeCommand.${k}`) },
    { key: 'status', dataIndex: 'status', title: t('nodes.status'), render: (s: NodeCommand['status']) => <Tag color={STATUS_COLORS[s]}>{t(`nodeCommand.${s}`)}</Tag> },
    { key: 'message', dataIndex: 'message', title: t('nodes.result'), ellipsis: true },
    { key: 'createdAt', dataIndex: 'createdAt', title: t('infra.createdAt'), render: (v: string) => formatDate(v) },
    { key: 'finishedAt', dataIndex: 'finishedAt', title: t('nodes.finishedAt'), render: (v: string | null) => formatDate(v) },
  ];
  const disabled = kind === 'clearUrlCache' && !urlsValid;
  return (
    <Modal open width={860} title={t('nodes.commandsTitle', { name: node.name })} footer={null} onCancel={onClose}>
      <Form layout="vertical">
        <Space align="end" wrap>
          <Form.Item label={t('nodes.commands')}>
            <Select style={{ width: 220 }} value={kind} onChange={setKind} options={KINDS.map((k) => ({ value: k, label: t(`nodeCommand.${k}`) }))} />
          </Form.Item>
          <Form.Item>
            <Popconfirm title={t(`nodeCommand.${kind}`)} onConfirm={() => queue.mutate()} okText={t('common.confirm')} cancelText={t('infra.cancel')} disabled={disabled}>
              <Button type="primary" loading={queue.isPending} disabled={disabled}>
                {t('nodes.queue')}
              </Button>
            </Popconfirm>
          </Form.Item>
        </Space>
        {kind === 'clearUrlCache' ? (
          <Form.Item label={t('nodes.urls')} validateStatus={urls && !urlsValid ? 'error' : undefined} help={urls && !urlsValid ? t('validation.wrongFormat') : undefined}>
            <Input.TextArea rows={4} value={urls} onChange={(e) => setUrls(e.target.value)} placeholder="https://www.example.com/index.html" />
          </Form.Item>
        ) : null}
      </Form>
      <Table<NodeCommand> rowKey="id" size="small" columns={columns} dataSource={commands.data ?? []} loading={commands.isLoading} pagination={false} scroll={{ x: 'max-content', y: 360 }} />
    </Modal>
  );
}
