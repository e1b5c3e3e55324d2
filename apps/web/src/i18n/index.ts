import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@edgekeep/contract/constants';
import { enUS } from './en-us';
import { zhCN } from './zh-cn';
import { zhTW } from './zh-tw';

const STORAGE_KEY = 'language';

/** Each language's name as written in that language, for the header's switch. */
export const LANGUAGE_NAMES: Record<Language, string> = { zh_TW: '繁體中文', zh_CN: '简体中文', en_US: 'English' };
export const resources = { en_US: enUS, zh_TW: zhTW, zh_CN: zhCN } satisfies Record<Language, typeof enUS>;

const isLanguage = (v: unknown): v is Language => LANGUAGES.includes(v as Language);

export function storedLanguage(): Language {
  const v = localStorage.getItem(STORAGE_KEY);
  return isLanguage(v) ? v : DEFAULT_LANGUAGE;
}

export const currentLanguage = (): Language => (isLanguage(i18next.language) ? i18next.language : DEFAULT_LANGUAGE);

export async function setLanguage(lang: Language) {
  localStorage.setItem(STORAGE_KEY, lang);
  await i18next.changeLanguage(lang);
}

export async function initI18n() {
  await i18next.use(initReactI18next).init({
    lng: storedLanguage(),
    fallbackLng: DEFAULT_LANGUAGE,
    resources: Object.fromEntries(Object.entries(resources).map(([k, v]) => [k, { translation: v }])),
    interpolation: { escapeValue: false },
  });
  const markPage = (lang: string) => (document.documentElement.lang = lang.replace('_', '-'));
  markPage(i18next.language);
  i18next.on('languageChanged', markPage);
}
