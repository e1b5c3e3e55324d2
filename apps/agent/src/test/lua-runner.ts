import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { LUA_RUNTIME_DIR } from '../lua/runtime';

const MODULES = '/usr/lib/nginx/modules';

/**
 * Runs a Lua chunk in nginx's LuaJIT with the edgekeep modules on the path, and returns what the chunk
 * returns, through JSON. nginx skips init_by_lua under `nginx -t`, so it starts for real and the chunk's
 * wrapper exits the master before it binds anything.
 */
export const runLua = async <T>({ code }: { code: string }): Promise<T> => {
  const dir = await mkdtemp(join(tmpdir(), 'ek-lua-'));
  try {
    const out = join(dir, 'out.json');
    await writeFile(join(dir, 'chunk.lua'), code);
    await writeFile(
      join(dir, 'nginx.conf'),
      [
        `load_module ${MODULES}/ndk_http_module.so;`,
        `load_module ${MODULES}/ngx_http_lua_module.so;`,
        `load_module ${MODULES}/ngx_stream_module.so;`,
        'error_log stderr;',
        `pid ${dir}/nginx.pid;`,
        'events {}',
        'http {',
        `  lua_package_path "${dirname(LUA_RUNTIME_DIR)}/?.lua;;";`,
        '  init_by_lua_block {',
        `    local result = assert(loadfile("${dir}/chunk.lua"))()`,
        `    local f = assert(io.open("${out}", "w"))`,
        '    f:write(require("cjson").encode(result))',
        '    f:close()',
        '    os.exit(0)',
        '  }',
        '}',
      ].join('\n'),
    );
    await new Promise<void>((resolve, reject) =>
      execFile('nginx', ['-p', `${dir}/`, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { timeout: 20_000 }, (err, _o, stderr) =>
        err ? reject(new Error(stderr.trim() || err.message)) : resolve(),
      ),
    );
    return JSON.parse(await readFile(out, 'utf8')) as T;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};
