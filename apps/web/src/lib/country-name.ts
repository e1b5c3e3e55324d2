import { currentLanguage } from '../i18n';

/** A country's name (ISO 3166-1 alpha-2) in the console's language; the code itself where the browser has none. */
export function countryName(code: string): string {
  try {
    return new Intl.DisplayNames([currentLanguage().replace('_', '-')], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
