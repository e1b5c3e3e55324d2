import type { Tier } from './tiers';

type Label = { en_US: string; zh_TW: string; zh_CN: string };
export type Permission = { key: string; label: Label };
export type PermissionGroup = { menu: string; label: Label; permissions: Permission[] };

const l = (en_US: string, zh_TW: string, zh_CN: string): Label => ({ en_US, zh_TW, zh_CN });
const p = (key: string, en_US: string, zh_TW: string, zh_CN: string): Permission => ({ key, label: l(en_US, zh_TW, zh_CN) });
const view = (res: string, en: string, tw: string, cn: string) => p(`${res}.view`, `View ${en}`, `檢視${tw}`, `查看${cn}`);
const edit = (res: string, en: string, tw: string, cn: string) => p(`${res}.edit`, `Manage ${en}`, `管理${tw}`, `管理${cn}`);
const both = (res: string, en: string, tw: string, cn: string) => [view(res, en, tw, cn), edit(res, en, tw, cn)];

const dashboard = { menu: 'dashboard', label: l('Dashboard', '儀表板', '仪表板'), permissions: [view('dashboard', 'the dashboard', '儀表板', '仪表板')] };
const userManagement = (extra: Permission[] = []): PermissionGroup => ({
  menu: 'userManagement',
  label: l('User management', '使用者管理', '用户管理'),
  permissions: [
    ...both('accounts', 'accounts', '帳號', '账号'),
    ...both('roles', 'roles', '角色', '角色'),
    view('auditLogs', 'the operation log', '操作紀錄', '操作记录'),
    p('apiTokens.edit', 'Manage API tokens', '管理 API 權杖', '管理 API 令牌'),
    ...extra,
  ],
});
const dataAnalysis = {
  menu: 'dataAnalysis',
  label: l('Data analysis', '數據分析', '数据分析'),
  permissions: [
    view('statistics', 'statistics', '統計', '统计'),
    view('accessLogs', 'access and WAF logs', '存取與 WAF 紀錄', '访问与 WAF 日志'),
    p('logs.export', 'Export logs', '匯出紀錄', '导出日志'),
    view('security', 'security analysis', '安全分析', '安全分析'),
  ],
};

/**
 * Every permission key of each tier, grouped by menu: one key per screen and per write action. Root accounts
 * hold all keys of their tier; other accounts hold their role's keys.
 */
export const PERMISSION_CATALOGUE: Record<Tier, PermissionGroup[]> = {
  admin: [
    dashboard,
    { menu: 'licenses', label: l('Licenses', '授權', '授权'), permissions: both('licenses', 'licenses', '授權', '授权') },
    userManagement(),
  ],
  client: [
    { ...dashboard, permissions: both('dashboard', 'the dashboard', '儀表板', '仪表板') },
    {
      menu: 'nodeManage',
      label: l('Node management', '節點管理', '节点管理'),
      permissions: [
        ...both('zones', 'zones', '區域', '区域'),
        ...both('nodes', 'nodes', '節點', '节点'),
        ...both('lines', 'DNS resolution groups', '解析線路', '解析线路'),
        ...both('products', 'products', '產品', '产品'),
        ...both('sites', 'sites', '網站', '网站'),
        ...both('domains', 'domains', '網域', '域名'),
        ...both('blockList', 'blocked IPs', '封鎖 IP', '封禁 IP'),
        ...both('autoSSL', 'automatic certificates', '自動憑證', '自动证书'),
      ],
    },
    dataAnalysis,
    { menu: 'trafficPkgManagement', label: l('Traffic packages', '流量包', '流量包'), permissions: both('traffic', 'traffic packages', '流量包', '流量包') },
    { menu: 'monitorManagement', label: l('Monitoring', '監控管理', '监控管理'), permissions: both('monitors', 'monitors', '監控', '监控') },
    { menu: 'systemManagement', label: l('System', '系統管理', '系统管理'), permissions: both('system', 'system settings', '系統設定', '系统设置') },
    userManagement([edit('branding', 'branding', '品牌', '品牌'), edit('announcements', 'announcements', '公告', '公告')]),
  ],
  user: [
    dashboard,
    {
      menu: 'sitesManagement',
      label: l('Sites', '網站管理', '网站管理'),
      permissions: [
        ...both('sites', 'sites', '網站', '网站'),
        ...both('domains', 'domains', '網域', '域名'),
        ...both('ports', 'layer-4 ports', '四層埠號', '四层端口'),
        ...both('certificates', 'certificates', '憑證', '证书'),
        ...both('firewall', 'firewall rules', '防火牆規則', '防火墙规则'),
        ...both('errorPages', 'error pages', '錯誤頁面', '错误页面'),
        ...both('blockList', 'blocked IPs', '封鎖 IP', '封禁 IP'),
      ],
    },
    dataAnalysis,
    { menu: 'trafficPkgManagement', label: l('Traffic packages', '流量包', '流量包'), permissions: [view('traffic', 'traffic packages', '流量包', '流量包')] },
    { menu: 'systemManagement', label: l('System', '系統管理', '系统管理'), permissions: [edit('notify', 'notification settings', '通知設定', '通知设置')] },
    userManagement(),
  ],
};

export const permissionKeys = (tier: Tier) => PERMISSION_CATALOGUE[tier].flatMap((g) => g.permissions.map((x) => x.key));
