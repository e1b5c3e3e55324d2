export { startAgent, type Agent, type AgentOptions } from './agent';
export { applyState, type ApplyOptions, type ApplyResult } from './apply/apply';
export { readControlToken } from './apply/layout';
export { nginxArgs } from './apply/nginx';
export { stopNginx } from './apply/process';
export { createApiClient } from './sync/api-client';
export { controlStatus, purgeCache, pushData, type Control, type ControlStatus } from './control/client';
export { ACCESS_LOG, luaData, render, type LuaData, type RenderedFiles } from './render';
