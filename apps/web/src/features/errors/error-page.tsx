import { tierFromPath } from '@edgekeep/contract/tiers';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';

/** The page of a path that leads nowhere; "back home" is the area's dashboard (its sign-in page when signed out). */
export default function ErrorPage() {
  const { t } = useTranslation();
  const tier = tierFromPath(useLocation().pathname);
  return (
    <Result
      status="404"
      title={t('error.notFoundTitle')}
      subTitle={t('error.notFoundText')}
      extra={
        <Link to={`/${tier}/dashboard`}>
          <Button type="primary">{t('error.backHome')}</Button>
        </Link>
      }
    />
  );
}
