import { KeyOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Dropdown } from 'antd';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Tier } from '@edgekeep/contract/tiers';
import { accountCalls } from '../../api/account';
import { readTokens } from '../../api/cookies';
import { endSession } from '../session';
import { useSelf } from '../use-self';

/** Ends the session on the server (whatever it answers), then in the browser. */
async function logout(tier: Tier) {
  const tokens = readTokens(tier);
  if (tokens) await (await accountCalls()).logout(tier, tokens).catch(() => undefined);
  endSession(tier, i18next.t('message.logoutSuccess'), 'success');
}

export function AccountMenu({ tier }: { tier: Tier }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const self = useSelf(tier).data;
  const items = [
    { key: 'userManagement/userInformation', icon: <UserOutlined />, label: t('menu.userInformation') },
    { key: 'changePassword', icon: <KeyOutlined />, label: t('menu.changePassword') },
    { type: 'divider' as const },
    { key: 'logout', icon: <LogoutOutlined />, label: t('menu.logout'), danger: true },
  ];
  const onClick = ({ key }: { key: string }) => (key === 'logout' ? void logout(tier) : navigate(`/${tier}/${key}`));
  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']}>
      <Button type="text" data-testid="account-menu">
        <Avatar size="small" icon={<UserOutlined />} />
        <span>{self?.email ?? '---'}</span>
      </Button>
    </Dropdown>
  );
}
