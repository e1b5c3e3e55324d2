import { describe, expect, it } from 'vitest';
import { nginxDirectiveIssues } from './client-settings';

describe('nginx directives a client may set', () => {
  it('takes simple directives, quoted values, comments and escapes', () => {
    for (const text of ['', 'client_body_timeout 30s;', "add_header X-A 'a; {b}' always; # note\nsend_timeout 5s;", 'add_header X a\\"b;', 'log_format_x "a\\"b";']) {
      expect(nginxDirectiveIssues(text), text).toEqual([]);
    }
  });

  it('reads a backslash outside quotes as nginx does, so a brace cannot hide behind it', () => {
    expect(nginxDirectiveIssues('add_header X a\\"b } server { listen 81;')).toEqual(['blocks ({ }) are not allowed: simple directives only']);
  });

  it('refuses blocks, unended statements, open quotes and directives that reach outside the settings', () => {
    expect(nginxDirectiveIssues('location / { }')[0]).toContain('blocks');
    expect(nginxDirectiveIssues('send_timeout 5s')).toEqual(['"send_timeout 5s" is not ended by ;']);
    expect(nginxDirectiveIssues('add_header X "open;')).toEqual(['a quote is not closed', '"add_header X "open;" is not ended by ;']);
    for (const name of ['include', 'load_module', 'content_by_lua_block', 'lua_shared_dict', 'error_log', 'root', 'ssl_certificate_key']) {
      expect(nginxDirectiveIssues(`${name} x;`)).toEqual([`"${name}" cannot be set here`]);
    }
  });
});
