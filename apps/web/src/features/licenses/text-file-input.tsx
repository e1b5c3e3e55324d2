import { UploadOutlined } from '@ant-design/icons';
import { Button, Input, Space, Upload } from 'antd';
import { useTranslation } from 'react-i18next';

type Props = { value?: string; onChange?: (value: string) => void; placeholder?: string; testId?: string };

/** Text pasted in, or read from a chosen file (a key file, a registration request file). */
export function TextFileInput({ value, onChange, placeholder, testId }: Props) {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Input.TextArea
        rows={4}
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange?.(e.target.value)}
        data-testid={testId}
        style={{ fontFamily: 'monospace' }}
      />
      <Upload
        accept=".txt,.key,.req,text/plain"
        maxCount={1}
        showUploadList={false}
        beforeUpload={(file) => {
          void file.text().then((text) => onChange?.(text.trim()));
          return false;
        }}
      >
        <Button icon={<UploadOutlined />}>{t('licenses.fromFile')}</Button>
      </Upload>
    </Space>
  );
}
