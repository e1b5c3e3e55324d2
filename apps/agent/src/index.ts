export { applyState, type ApplyOptions, type ApplyResult } from './apply/apply';
export { nginxArgs } from './apply/nginx';
export { controlStatus, purgeCache, pushData, type Control, type ControlStatus } from './control/client';
export { ACCESS_LOG, luaData, render, type LuaData, type RenderedFiles } from './render';
