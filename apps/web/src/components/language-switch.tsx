import { GlobalOutlined } from '@ant-design/icons';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@edgekeep/contract/constants';
import { LANGUAGE_NAMES, setLanguage } from '../i18n';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <Select<Language>
      aria-label={t('common.language')}
      data-testid="language-switch"
      value={i18n.language as Language}
      onChange={(lang) => void setLanguage(lang)}
      options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
      prefix={<GlobalOutlined />}
      variant="borderless"
      style={{ minWidth: 130 }}
    />
  );
}
