import { Alert, Button, Card, Form, Input, List, Skeleton, Tabs, Typography } from 'antd';
import { NODE_LIST_REFRESH_MS } from '@edgekeep/contract/constants';
import { NGINX_CONTEXTS, NGINX_DIRECTIVES_MAX, nginxDirectiveIssues, type NginxContext } from '@edgekeep/contract/schemas/client-settings';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { useNginxSetting, useSetNginx } from './queries';

/** Spec §8: the message each context's save shows. */
const SUCCESS = {
  http: 'zones.setNginxHttpSuccess',
  stream: 'zones.setNginxStreamSuccess',
  worker: 'zones.setNginxWorkerSuccess',
  custom: 'infra.setSuccess',
} as const;
const LABEL = { http: 'nginxHttp', stream: 'nginxStream', worker: 'nginxWorker', custom: 'nginxCustom' } as const;
const HINT = { http: 'nginxHttpHint', stream: 'nginxStreamHint', worker: 'nginxWorkerHint', custom: 'nginxCustomHint' } as const;

function ContextForm({ context, value, editable }: { context: NginxContext; value: string; editable: boolean }) {
  const { t } = useTranslation();
  const save = useSetNginx();
  const rule = {
    validator: (_: unknown, v?: string) => {
      const issues = nginxDirectiveIssues(v ?? '');
      return issues.length ? Promise.reject(new Error(issues.join('; '))) : Promise.resolve();
    },
  };
  return (
    <Form
      layout="vertical"
      initialValues={{ directives: value }}
      disabled={!editable}
      onFinish={({ directives }: { directives?: string }) =>
        save.mutate({ context, directives: directives ?? '' }, { onSuccess: () => toast.success(t(SUCCESS[context])) })
      }
      onFinishFailed={() => toast.error(t('validation.checkForm'))}
    >
      <Typography.Paragraph type="secondary">{t(`clientSettings.${HINT[context]}`)}</Typography.Paragraph>
      <Form.Item name="directives" rules={[rule]}>
        <Input.TextArea rows={10} maxLength={NGINX_DIRECTIVES_MAX} style={{ fontFamily: 'monospace' }} placeholder={t('clientSettings.nginxPlaceholder')} data-testid={`nginx-${context}`} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={save.isPending} data-testid={`nginx-save-${context}`}>
        {t('common.save')}
      </Button>
    </Form>
  );
}

/** systemManagement/nginxSetting: the client's own nginx directives on every node of its zones. */
export default function NginxSettingPage() {
  const { t } = useTranslation();
  const setting = useNginxSetting(NODE_LIST_REFRESH_MS);
  const editable = useCan()('system.edit');
  if (!setting.data) return <Card title={t('menu.nginxSetting')}>{setting.isPending ? <Skeleton active /> : null}</Card>;
  const { refusals } = setting.data;
  return (
    <Card title={t('menu.nginxSetting')}>
      <Alert type="info" showIcon message={t('clientSettings.nginxHint')} style={{ marginBottom: 16 }} />
      {refusals.length ? (
        <Alert
          type="error"
          showIcon
          data-testid="nginx-refusals"
          style={{ marginBottom: 16 }}
          message={t('clientSettings.refusalsTitle')}
          description={
            <List
              size="small"
              dataSource={refusals}
              renderItem={(r) => (
                <List.Item>
                  <Typography.Text strong>{r.nodeName}</Typography.Text>: <Typography.Text code>{r.error}</Typography.Text>
                </List.Item>
              )}
            />
          }
        />
      ) : null}
      <Tabs
        items={NGINX_CONTEXTS.map((context) => ({
          key: context,
          label: t(`clientSettings.${LABEL[context]}`),
          children: <ContextForm context={context} value={setting.data[context]} editable={editable} />,
        }))}
      />
    </Card>
  );
}
