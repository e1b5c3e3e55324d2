import type { FormRule } from 'antd';
import { useTranslation } from 'react-i18next';

const split = (text: string | undefined) => (text ?? '').split(/\r?\n/).map((l) => l.trim()).filter(Boolean);

/** Batch input (spec §5): one entry per line, no spaces within a line; `check` validates each entry. */
export function useLines(check: (line: string) => boolean = () => true) {
  const { t } = useTranslation();
  const rule: FormRule = {
    validator: (_, text: string | undefined) =>
      split(text).every((line) => !/\s/.test(line) && check(line)) ? Promise.resolve() : Promise.reject(new Error(t('validation.wrongFormat'))),
  };
  return { split, rule };
}
