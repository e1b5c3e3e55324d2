import { DownloadOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Button, Card, Col, Form, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { licenseCalls, licenseKeys, type ClientLicense } from './queries';
import { toast } from '../../app/feedback';
import { queryClient } from '../../app/query-client';
import { useFormRules } from '../../components/form-rules';
import { saveText } from '../../lib/save-text';
import { TextFileInput } from './text-file-input';


/** A form of one key (pasted or from a file) sent by `send`; the key stays typed when the call is refused. */
type KeyFormProps = {
  name: string;
  label: string;
  send: (key: string) => Promise<ClientLicense>;
  success: 'licenseMessage.set' | 'licenseMessage.updated';
  onDone?: () => void;
};

function KeyForm(props: KeyFormProps) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<{ key: string }>();
  const send = useMutation({
    mutationFn: (key: string) => props.send(key.trim()),
    onSuccess: (next) => {
      queryClient.setQueryData(licenseKeys.mine, next);
      form.resetFields();
      toast.success(t(props.success));
      props.onDone?.();
    },
  });
  return (
    <Form form={form} layout="vertical" onFinish={(v) => send.mutate(v.key)} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
      <Form.Item name="key" label={props.label} rules={[rules.required]}>
        <TextFileInput testId={`${props.name}-key`} placeholder="EK1." />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={send.isPending} data-testid={`${props.name}-submit`}>
        {t('common.submit')}
      </Button>
    </Form>
  );
}

/** The offline flow: make the registration request file, activate the key it is answered with, update the key. */
export function OfflineActivation({ offline }: { offline: boolean }) {
  const { t } = useTranslation();
  const register = useMutation({
    mutationFn: licenseCalls.registration,
    onSuccess: (r) => {
      saveText(`edgekeep-registration-${r.clientID}.req`, r.request);
      toast.success(t('systemSetting.requestMade'));
    },
  });
  return (
    <Card title={t('systemSetting.offline')}>
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={offline ? 8 : 12}>
          <Typography.Title level={5}>{t('systemSetting.step1')}</Typography.Title>
          <Typography.Paragraph type="secondary">{t('systemSetting.step1Hint')}</Typography.Paragraph>
          <Button icon={<DownloadOutlined />} loading={register.isPending} onClick={() => register.mutate()} data-testid="make-request">
            {t('systemSetting.makeRequest')}
          </Button>
          {register.data ? (
            <Typography.Paragraph copyable code style={{ wordBreak: 'break-all', marginTop: 16 }} data-testid="request-text">
              {register.data.request}
            </Typography.Paragraph>
          ) : null}
        </Col>
        <Col xs={24} lg={offline ? 8 : 12}>
          <Typography.Title level={5}>{t('systemSetting.step2')}</Typography.Title>
          <KeyForm name="activate" label={t('systemSetting.activateKey')} send={licenseCalls.activate} success={'licenseMessage.set'} onDone={register.reset} />
        </Col>
        {offline ? (
          <Col xs={24} lg={8}>
            <Typography.Title level={5}>{t('systemSetting.updateKey')}</Typography.Title>
            <KeyForm name="update" label={t('systemSetting.renewedKey')} send={licenseCalls.updateKey} success={'licenseMessage.updated'} />
          </Col>
        ) : null}
      </Row>
    </Card>
  );
}
