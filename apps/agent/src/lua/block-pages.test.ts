import { describe, expect, it } from 'vitest';
import { nginxForTests } from '../test/nginx-harness';
import { runLua } from '../test/lua-runner';

const nginx = await nginxForTests('the block page tests need nginx with Lua');

describe.skipIf(!nginx.ok)('block pages', () => {
  it('picks the language from Accept-Language, English when none fits', async () => {
    const langs = await runLua<string[]>({
      code: `local page = require "edgekeep.page"
        return { page.lang("zh-TW,zh;q=0.9"), page.lang("zh-Hans-CN"), page.lang("fr-FR, en;q=0.5"), page.lang("de"), page.lang(nil) }`,
    });
    expect(langs).toEqual(['zh_TW', 'zh_CN', 'en_US', 'en_US', 'en_US']);
  });

  it('renders the 978 page around a challenge body, escaping what the visitor controls', async () => {
    const html = await runLua<string>({
      code: `return require("edgekeep.page").template(978, { lang = "zh_CN", ip = "<b>1.2.3.4</b>", requestId = "r1", body = '<form id="challenge"></form>' })`,
    });
    expect(html).toContain('正在检查您的浏览器');
    expect(html).toContain('<form id="challenge"></form>');
    expect(html).toContain('&lt;b&gt;1.2.3.4&lt;/b&gt;');
    expect(html).toContain('<html lang="zh-CN">');
  });
});
