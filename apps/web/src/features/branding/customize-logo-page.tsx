import { Button, Card, Form, Input, Popconfirm, Skeleton, Space } from 'antd';
import { BRANDING_IMAGES, brandingTexts, type BrandingImage } from '@edgekeep/contract/schemas/branding';
import { DEFAULT_BRANDING } from '@edgekeep/contract/constants';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { ImageField, imageProblem } from './image-field';
import { useOwnBranding, useResetBranding, useUploadBranding } from './queries';

type Texts = { title?: string; copyright?: string };

const IMAGE_LABEL = {
  backgroundImage: 'backgroundImage',
  favicon: 'favicon',
  logo: 'logo',
  sidebarLogo: 'sidebarLogo',
  sidebarSimpleLogo: 'sidebarSimpleLogo',
} as const satisfies Record<BrandingImage, string>;

const textRule = (field: keyof Texts, message: string) => ({
  validator: (_: unknown, v?: string) => (!v || brandingTexts.shape[field].safeParse(v).success ? Promise.resolve() : Promise.reject(new Error(message))),
});

/** userManagement/customizeLogo (spec §2, §3 branding): what every area's sign-in screens and shell show. */
export default function CustomizeLogoPage() {
  const { t } = useTranslation();
  const own = useOwnBranding();
  const uploadBranding = useUploadBranding();
  const reset = useResetBranding();
  const [files, setFiles] = useState<Partial<Record<BrandingImage, File>>>({});
  // A new round of file inputs after each save, so none still names a file already sent.
  const [round, setRound] = useState(0);
  const [form] = Form.useForm<Texts>();
  if (!own.data) return <Card title={t('menu.customizeLogo')}>{own.isPending ? <Skeleton active /> : null}</Card>;
  const branding = own.data;

  const choose = (field: BrandingImage, file?: File) => {
    const problem = file && imageProblem(field, file);
    if (problem) toast.error(t(`clientSettings.${problem}`));
    setFiles((f) => ({ ...f, [field]: problem ? undefined : file }));
  };
  const save = (texts: Texts) =>
    uploadBranding.mutate(
      { title: texts.title?.trim() || undefined, copyright: texts.copyright?.trim() || undefined, ...files },
      {
        onSuccess: () => {
          setFiles({});
          setRound((r) => r + 1);
          toast.success(t('infra.updateSuccess'));
        },
      },
    );
  const resetField = (field: 'title' | 'copyright' | BrandingImage) =>
    reset.mutate([field], {
      onSuccess: (answer) => {
        form.setFieldsValue({ title: answer.title ?? '', copyright: answer.copyright ?? '' });
        toast.success(t('infra.updateSuccess'));
      },
    });

  return (
    <Card title={t('menu.customizeLogo')}>
      <Form<Texts>
        form={form}
        layout="vertical"
        style={{ maxWidth: 720 }}
        initialValues={{ title: branding.title ?? '', copyright: branding.copyright ?? '' }}
        onFinish={save}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
      >
        <Form.Item name="title" label={t('clientSettings.brandingTitle')} rules={[textRule('title', t('validation.wrongFormat'))]} extra={branding.title ? undefined : t('clientSettings.defaultIs', { value: DEFAULT_BRANDING.title })}>
          <Input maxLength={64} data-testid="branding-title" />
        </Form.Item>
        <Form.Item name="copyright" label={t('clientSettings.brandingCopyright')} rules={[textRule('copyright', t('validation.wrongFormat'))]} extra={branding.copyright ? undefined : t('clientSettings.defaultIs', { value: DEFAULT_BRANDING.copyright })}>
          <Input maxLength={256} data-testid="branding-copyright" />
        </Form.Item>
        {BRANDING_IMAGES.map((field) => (
          <Form.Item key={field} label={t(`clientSettings.${IMAGE_LABEL[field]}`)}>
            <ImageField key={round} field={field} current={branding[field]} chosen={files[field]} onChoose={(file) => choose(field, file)} onReset={() => resetField(field)} />
          </Form.Item>
        ))}
        <Space>
          <Button type="primary" htmlType="submit" loading={uploadBranding.isPending} data-testid="branding-save">
            {t('common.save')}
          </Button>
          <Popconfirm title={t('clientSettings.resetAllConfirm')} onConfirm={() => reset.mutate(['title', 'copyright', ...BRANDING_IMAGES], { onSuccess: () => form.setFieldsValue({ title: '', copyright: '' }) })}>
            <Button danger>{t('clientSettings.resetAll')}</Button>
          </Popconfirm>
        </Space>
      </Form>
    </Card>
  );
}
