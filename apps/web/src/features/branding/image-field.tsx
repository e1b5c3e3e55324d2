import { Button, Space, Typography } from 'antd';
import { useEffect, useMemo } from 'react';
import { BRANDING_IMAGE_MAX_BYTES, BRANDING_IMAGE_TYPES, type BrandingImage } from '@edgekeep/contract/schemas/branding';
import { useTranslation } from 'react-i18next';

const ACCEPT = [...BRANDING_IMAGE_TYPES, '.ico'].join(',');
const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

/** The browser's own check of a chosen file; the server checks the bytes again. */
export function imageProblem(field: BrandingImage, file: File): 'imageWrongType' | 'imageTooLarge' | undefined {
  if (file.type && !(BRANDING_IMAGE_TYPES as readonly string[]).includes(file.type) && !file.name.toLowerCase().endsWith('.ico')) return 'imageWrongType';
  if (file.size > BRANDING_IMAGE_MAX_BYTES[field]) return 'imageTooLarge';
  return undefined;
}

type Props = { field: BrandingImage; current: string | null; chosen?: File; onChoose: (file?: File) => void; onReset: () => void };

/** One branding image: what shows now, a file to replace it, and a way back to the default. */
export function ImageField({ field, current, chosen, onChoose, onReset }: Props) {
  const { t } = useTranslation();
  const local = useMemo(() => (chosen ? URL.createObjectURL(chosen) : undefined), [chosen]);
  useEffect(() => () => (local ? URL.revokeObjectURL(local) : undefined), [local]);
  const preview = local ?? current;
  return (
    <Space align="start" size="large" wrap>
      <div style={{ width: 120, height: 64, border: '1px dashed #d9d9d9', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        {preview ? (
          <img src={preview} alt="" style={{ maxWidth: 116, maxHeight: 60 }} data-testid={`branding-preview-${field}`} />
        ) : (
          <Typography.Text type="secondary">{t('clientSettings.defaultShown')}</Typography.Text>
        )}
      </div>
      <Space direction="vertical" size="small">
        <input type="file" accept={ACCEPT} data-testid={`branding-file-${field}`} onChange={(e) => onChoose(e.target.files?.[0] ?? undefined)} />
        <Typography.Text type="secondary">{t('clientSettings.imageHint', { size: kb(BRANDING_IMAGE_MAX_BYTES[field]) })}</Typography.Text>
        {current && !chosen ? (
          <Button size="small" danger onClick={onReset}>
            {t('clientSettings.resetToDefault')}
          </Button>
        ) : null}
      </Space>
    </Space>
  );
}
