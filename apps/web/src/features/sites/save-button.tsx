import { Button } from 'antd';
import { useTranslation } from 'react-i18next';

/** The submit button of a site option form, for those who may change the site. */
export function SaveButton({ editable, loading }: { editable: boolean; loading: boolean }) {
  const { t } = useTranslation();
  if (!editable) return null;
  return (
    <Button type="primary" htmlType="submit" loading={loading}>
      {t('siteOptions.save')}
    </Button>
  );
}
