import type { FormRule } from 'antd';

type Schema = { safeParse: (v: unknown) => { success: boolean } } | RegExp;

/** An antd rule from a contract schema or pattern: an empty value passes (pair it with `required` where needed). */
export const zodRule = (schema: Schema, message: string): FormRule => ({
  validator: (_, value) => {
    if (value === undefined || value === null || value === '') return Promise.resolve();
    const ok = schema instanceof RegExp ? schema.test(String(value)) : schema.safeParse(value).success;
    return ok ? Promise.resolve() : Promise.reject(new Error(message));
  },
});
