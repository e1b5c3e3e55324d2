import * as s from '@edgekeep/contract/schemas/auto-certificates';
import { Alert, Button, Card, Form, Input, Select, Space, Tag, type FormRule } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { useGoogleTrustSetting, useProviderSetting, useSaveGoogleTrust, useSaveProvider } from './queries';

type ProviderForm = { provider: (typeof s.PROVIDERS)[number]; directoryUrl?: string; caBundle?: string; email?: string; eabKid?: string; eabHmacKey?: string };
type GoogleForm = { eabKid?: string; eabHmacKey?: string };

/** The CAs in the order the form offers them. */
const PROVIDER_ORDER = ['letsEncrypt', 'letsEncryptStaging', 'zeroSSL', 'googleTrust', 'custom'] as const satisfies readonly ProviderForm['provider'][];
const EAB_PROVIDERS = new Set<ProviderForm['provider']>(['zeroSSL', 'custom']);

/** A field rule from one of the contract's schemas. */
const fits = (schema: { safeParse: (v: unknown) => { success: boolean } }, message: string): FormRule => ({
  validator: (_, value) => (!value || schema.safeParse(value).success ? Promise.resolve() : Promise.reject(new Error(message))),
});

/**
 * The system settings' certificate-provider tab (setting/system/zeroSSL and googleTrust): which CA issues the
 * automatic certificates, a custom directory with its CA bundle, and the external account bindings. Secrets are
 * write-only: a stored one shows as set and is kept while its field stays empty.
 */
export default function CertificateProviderTab() {
  const { t } = useTranslation();
  const editable = useCan()('system.edit');
  const provider = useProviderSetting();
  const google = useGoogleTrustSetting();
  const saveProvider = useSaveProvider();
  const saveGoogle = useSaveGoogleTrust();
  const [form] = Form.useForm<ProviderForm>();
  const [googleForm] = Form.useForm<GoogleForm>();
  const chosen = Form.useWatch('provider', form);
  const shape = s.providerSettingBody.shape;

  useEffect(() => {
    if (!provider.data) return;
    form.setFieldsValue({ provider: provider.data.provider, directoryUrl: provider.data.directoryUrl, caBundle: provider.data.caBundle ?? undefined, email: provider.data.email ?? undefined, eabKid: provider.data.eabKid ?? undefined });
  }, [provider.data, form]);
  useEffect(() => {
    if (google.data) googleForm.setFieldsValue({ eabKid: google.data.eabKid ?? undefined });
  }, [google.data, googleForm]);

  const submitProvider = (v: ProviderForm) => {
    const eab = v.eabKid && v.eabHmacKey ? { eabKid: v.eabKid, eabHmacKey: v.eabHmacKey } : {};
    saveProvider.mutate(
      { provider: v.provider, ...(v.provider === 'custom' ? { directoryUrl: v.directoryUrl, caBundle: v.caBundle || null } : {}), email: v.email || null, ...eab },
      { onSuccess: () => toast.success(t('autoSsl.provider.saved')) },
    );
  };
  const submitGoogle = (v: GoogleForm) =>
    saveGoogle.mutate(v.eabKid ? { eabKid: v.eabKid, eabHmacKey: v.eabHmacKey } : { eabKid: null }, { onSuccess: () => toast.success(t('autoSsl.provider.saved')) });

  const required = { required: true, message: t('validation.required') };
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card title={t('autoSsl.provider.title')} loading={provider.isLoading}>
        <Form form={form} layout="vertical" disabled={!editable} onFinish={submitProvider} style={{ maxWidth: 640 }}>
          <Form.Item name="provider" label={t('autoSsl.provider.ca')} rules={[required]}>
            <Select options={PROVIDER_ORDER.map((p) => ({ value: p, label: t(`autoSsl.provider.names.${p}`) }))} />
          </Form.Item>
          {chosen === 'custom' ? (
            <>
              <Form.Item name="directoryUrl" label={t('autoSsl.provider.directoryUrl')} rules={[required, fits(shape.directoryUrl, t('autoSsl.provider.directoryUrlFormat'))]}>
                <Input placeholder="https://acme.example.com/directory" />
              </Form.Item>
              <Form.Item name="caBundle" label={t('autoSsl.provider.caBundle')} extra={t('autoSsl.provider.caBundleHelp')} rules={[fits(s.providerSettingBody.shape.caBundle, t('autoSsl.provider.caBundleFormat'))]}>
                <Input.TextArea rows={4} placeholder="-----BEGIN CERTIFICATE-----" />
              </Form.Item>
            </>
          ) : null}
          <Form.Item name="email" label={t('autoSsl.provider.email')} rules={[fits(shape.email, t('validation.emailFormat'))]}>
            <Input />
          </Form.Item>
          {chosen && EAB_PROVIDERS.has(chosen) ? (
            <>
              <Form.Item name="eabKid" label={t('autoSsl.provider.eabKid')}>
                <Input />
              </Form.Item>
              <Form.Item
                name="eabHmacKey"
                label={<Space>{t('autoSsl.provider.eabHmacKey')}{provider.data?.eabSet ? <Tag color="success">{t('autoSsl.provider.set')}</Tag> : null}</Space>}
                extra={provider.data?.eabSet ? t('autoSsl.provider.keepSecret') : undefined}
                dependencies={['eabKid']}
                rules={[
                  fits(shape.eabHmacKey, t('autoSsl.provider.hmacFormat')),
                  ({ getFieldValue }) => ({
                    validator: (_, value) => (!value || getFieldValue('eabKid') ? Promise.resolve() : Promise.reject(new Error(t('autoSsl.provider.eabPair')))),
                  }),
                ]}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            </>
          ) : null}
          {provider.data?.accountRegistered ? <Alert type="success" showIcon message={t('autoSsl.provider.registered')} style={{ marginBottom: 16 }} /> : null}
          {editable ? (
            <Button type="primary" htmlType="submit" loading={saveProvider.isPending}>
              {t('common.save')}
            </Button>
          ) : null}
        </Form>
      </Card>
      <Card title={t('autoSsl.provider.googleTitle')} loading={google.isLoading}>
        <Form form={googleForm} layout="vertical" disabled={!editable} onFinish={submitGoogle} style={{ maxWidth: 640 }}>
          <Form.Item name="eabKid" label={t('autoSsl.provider.eabKid')}>
            <Input />
          </Form.Item>
          <Form.Item
            name="eabHmacKey"
            label={<Space>{t('autoSsl.provider.eabHmacKey')}{google.data?.eabSet ? <Tag color="success">{t('autoSsl.provider.set')}</Tag> : null}</Space>}
            dependencies={['eabKid']}
            rules={[
              fits(shape.eabHmacKey, t('autoSsl.provider.hmacFormat')),
              ({ getFieldValue }) => ({ validator: (_, value) => (value || !getFieldValue('eabKid') ? Promise.resolve() : Promise.reject(new Error(t('autoSsl.provider.eabPair')))) }),
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          {editable ? (
            <Button type="primary" htmlType="submit" loading={saveGoogle.isPending}>
              {t('common.save')}
            </Button>
          ) : null}
        </Form>
      </Card>
    </Space>
  );
}
