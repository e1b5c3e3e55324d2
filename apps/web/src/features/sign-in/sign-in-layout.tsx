import { Card, Layout, Typography } from 'antd';
import { Outlet } from 'react-router';
import { useBranding } from '../../app/use-branding';
import { useTier } from '../../app/use-tier';
import { LanguageSwitch } from '../../components/language-switch';
import styles from './sign-in.module.css';

/** The frame of every sign-in screen: the area's branding around the form. */
export default function SignInLayout() {
  const tier = useTier();
  const branding = useBranding(tier);
  const background = branding.backgroundImage ? { backgroundImage: `url(${branding.backgroundImage})` } : undefined;
  return (
    <Layout className={styles.page} style={background}>
      <div className={styles.language}>
        <LanguageSwitch />
      </div>
      <Card className={styles.card}>
        <div className={styles.brand}>
          {branding.logo && <img src={branding.logo} alt="" className={styles.logo} />}
          <Typography.Title level={3}>{branding.title}</Typography.Title>
        </div>
        <Outlet />
      </Card>
      <Typography.Text type="secondary" className={styles.copyright}>
        {branding.copyright}
      </Typography.Text>
    </Layout>
  );
}
