import { BACKUP_PERIODS, BACKUP_RETENTION, dbBackupSetting, type DbBackupSetting } from '@edgekeep/contract/schemas/db-backup';
import { Alert, Button, Descriptions, Form, Input, InputNumber, Select, Space, Switch, Table, type FormRule } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { useFormRules } from '../../components/form-rules';
import { formatDate } from '../../lib/dates';
import { formatBytes } from '../../lib/units';
import { useDbBackup, useDbBackupMutations } from './queries';

const PERIOD_KEYS = { daily: 'dbBackup.periods.daily', weekly: 'dbBackup.periods.weekly', monthly: 'dbBackup.periods.monthly' } as const;

/** A field's rule from the contract's own schema of that field. */
const fieldRule = (field: 'time' | 'path', message: string): FormRule => ({
  validator: (_, value) => (!value || dbBackupSetting.shape[field].safeParse(value).success ? Promise.resolve() : Promise.reject(new Error(message))),
});

/** System settings → database backup: period, time (UTC), path and how many copies are kept; back up now. */
export default function DbBackupTab() {
  const { t } = useTranslation();
  const rules = useFormRules();
  const canEdit = useCan()('system.edit');
  const [form] = Form.useForm<DbBackupSetting>();
  const { data, isLoading } = useDbBackup();
  const { save, run } = useDbBackupMutations();
  const answer = data?.data;
  useEffect(() => {
    if (answer) form.setFieldsValue(answer);
  }, [answer, form]);

  const submit = (values: DbBackupSetting) => save.mutate(values, { onSuccess: () => toast.success(t('infra.updateSuccess')) });
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Form form={form} layout="vertical" style={{ maxWidth: 560 }} onFinish={submit} disabled={!canEdit || isLoading}>
        <Form.Item name="enabled" label={t('dbBackup.enabled')} valuePropName="checked">
          <Switch data-testid="db-backup-enabled" />
        </Form.Item>
        <Form.Item name="period" label={t('dbBackup.period')} rules={[rules.required]}>
          <Select options={BACKUP_PERIODS.map((p) => ({ value: p, label: t(PERIOD_KEYS[p]) }))} />
        </Form.Item>
        <Form.Item name="time" label={t('dbBackup.time')} extra={t('dbBackup.timeHint')} rules={[rules.required, fieldRule('time', t('validation.wrongFormat'))]}>
          <Input placeholder="03:00" data-testid="db-backup-time" />
        </Form.Item>
        <Form.Item name="path" label={t('dbBackup.path')} extra={t('dbBackup.pathHint')} rules={[rules.required, fieldRule('path', t('validation.wrongFormat'))]}>
          <Input placeholder="/var/backups/edgekeep" data-testid="db-backup-path" />
        </Form.Item>
        <Form.Item name="retention" label={t('dbBackup.retention')} rules={[rules.required]}>
          <InputNumber min={BACKUP_RETENTION.min} max={BACKUP_RETENTION.max} precision={0} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="db-backup-save">
            {t('common.save')}
          </Button>
          <Button
            onClick={() => run.mutate(undefined, { onSuccess: () => toast.success(t('dbBackup.done')) })}
            loading={run.isPending}
            data-testid="db-backup-run"
          >
            {t('dbBackup.runNow')}
          </Button>
        </Space>
      </Form>
      <Descriptions column={1} size="small" title={t('dbBackup.lastRun')}>
        <Descriptions.Item label={t('dbBackup.lastBackupAt')}>{answer ? formatDate(answer.lastBackupAt) || '-' : '---'}</Descriptions.Item>
        <Descriptions.Item label={t('dbBackup.lastStatus')}>
          {answer ? (answer.lastStatus ? t(answer.lastStatus === 'ok' ? 'dbBackup.statusOk' : 'dbBackup.statusFailed') : '-') : '---'}
        </Descriptions.Item>
      </Descriptions>
      {answer?.lastError ? <Alert type="error" showIcon message={answer.lastError} /> : null}
      <Table
        size="small"
        rowKey="file"
        pagination={false}
        loading={isLoading}
        dataSource={answer?.backups ?? []}
        locale={{ emptyText: t('dbBackup.noBackups') }}
        columns={[
          { key: 'file', dataIndex: 'file', title: t('dbBackup.file') },
          { key: 'bytes', title: t('dbBackup.size'), render: (_, b) => formatBytes(b.bytes) },
          { key: 'createdAt', title: t('dbBackup.createdAt'), render: (_, b) => formatDate(b.createdAt) },
        ]}
      />
    </Space>
  );
}
