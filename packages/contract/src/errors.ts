import type { Language } from './constants';

type Entry<C extends number = number> = { code: C; status: number; en_US: string; zh_TW: string; zh_CN: string };
const e = <C extends number>(code: C, status: number, en_US: string, zh_TW: string, zh_CN: string): Entry<C> => ({
  code,
  status,
  en_US,
  zh_TW,
  zh_CN,
});

/**
 * The error catalogue of spec §8: every code, its HTTP status (DESIGN.md "Contract decisions") and its
 * message in the three languages. The API answers with these; the console maps codes to them.
 */
export const ERRORS = {
  SelfCheck: e(4003, 500, 'Self-check error', '自我檢查錯誤', '自我检查错误'),
  Provider: e(4004, 502, 'Provider error', '供應商錯誤', '供应商错误'),
  UnknownLegacy: e(4005, 500, 'Unknown error', '未知錯誤', '未知错误'),
  OK: e(101001, 200, 'OK', '成功', '成功'),
  Unknown: e(101002, 500, 'Unknown error, try again later', '未知錯誤，請稍後再試', '未知错误，请稍后再试'),
  Parameter: e(101003, 400, 'Parameter error', '參數錯誤', '参数错误'),
  PathInvalid: e(101004, 404, 'API path invalid', 'API 路徑無效', 'API 路径无效'),
  Database: e(101005, 500, 'Database error', '資料庫錯誤', '数据库错误'),
  InvalidDnsSetting: e(101006, 400, 'Invalid DNS setting', 'DNS 設定無效', 'DNS 设置无效'),
  ProxyConnection: e(101007, 502, 'Proxy connection failed', '代理連線失敗', '代理连接失败'),
  AccountNotEnabled: e(101008, 403, 'Account not enabled', '帳號未啟用', '账号未启用'),
  MultipleErrors: e(101009, 400, 'Multiple errors', '多個錯誤', '多个错误'),
  DnsExecution: e(101010, 502, 'DNS execution error', 'DNS 執行錯誤', 'DNS 执行错误'),
  InconsistentPorts: e(101011, 400, 'Inconsistent ports', '埠號不一致', '端口不一致'),
  CredentialFailed: e(101012, 401, 'Failed to authenticate the credential', '憑證驗證失敗', '凭证验证失败'),
  WrongCode: e(101013, 401, 'Wrong verification code or invalid token', '驗證碼錯誤或權杖無效', '验证码错误或令牌无效'),
  TokenExpired: e(101014, 401, 'Token expired', '權杖已過期', '令牌已过期'),
  RevokeTokenFailed: e(101015, 401, 'Revoke token failed', '撤銷權杖失敗', '撤销令牌失败'),
  RefreshTokenFailed: e(101016, 401, 'Refresh token failed (refresh token expired)', '更新權杖失敗（更新權杖已過期）', '刷新令牌失败（刷新令牌已过期）'),
  DuplicateEmail: e(101017, 409, 'Duplicate email', '電子郵件重複', '电子邮件重复'),
  PermissionDenied: e(101018, 403, 'Permission denied', '權限不足', '权限不足'),
  LicenseExpired: e(101019, 403, 'License expired', '授權已過期', '授权已过期'),
  IllegalEmailSettings: e(101020, 400, 'Illegal email settings', '電子郵件設定不合法', '电子邮件设置不合法'),
  IllegalChatBotToken: e(101021, 400, 'Illegal chat-bot token', '聊天機器人權杖不合法', '聊天机器人令牌不合法'),
  LicenseMissing: e(101022, 403, 'License does not exist', '授權不存在', '授权不存在'),
  IllegalPortType: e(101023, 400, 'Illegal port type', '埠號類型不合法', '端口类型不合法'),
  InvalidLicenseServer: e(101024, 400, 'Invalid license server', '授權伺服器無效', '授权服务器无效'),
  Duplicated: e(101025, 409, 'Duplicated data', '資料重複', '数据重复'),
  ItemCountExceeded: e(101029, 400, 'Item count exceeds limit', '項目數量超過上限', '项目数量超过上限'),
  CharCountExceeded: e(101030, 400, 'Character count exceeds limit', '字元數超過上限', '字符数超过上限'),
  TooManyAttempts: e(101031, 429, 'Too many failed attempts, try again later', '失敗次數過多，請稍後再試', '失败次数过多，请稍后再试'),
  RoleInUse: e(101032, 409, 'The role is held by accounts; give them another role first', '仍有帳號使用此角色，請先為其更換角色', '仍有账号使用此角色，请先为其更换角色'),
  ZoneHasNodes: e(201001, 400, 'Remove the nodes in the zone first', '請先移除區域中的節點', '请先移除区域中的节点'),
  ZoneNameExists: e(201002, 409, 'Zone name exists', '區域名稱已存在', '区域名称已存在'),
  ZoneCountExceeded: e(201003, 400, 'Zone count exceeds limit', '區域數量超過上限', '区域数量超过上限'),
  NodeCommunication: e(202001, 502, 'Node communication error', '節點通訊錯誤', '节点通信错误'),
  NodeCountExceeded: e(202002, 400, 'Node count exceeds limit', '節點數量超過上限', '节点数量超过上限'),
  NodeInGroup: e(202003, 400, 'Node exists in a group', '節點存在於群組中', '节点存在于分组中'),
  NodeInVirtualNode: e(202004, 400, 'Node exists in a virtual node', '節點存在於虛擬節點中', '节点存在于虚拟节点中'),
  L4NodeInUse: e(202005, 400, 'Port type 4 (layer-4 node) in use', '第四層節點使用中', '四层节点使用中'),
  InvalidNodeTime: e(202006, 400, 'Invalid node time', '節點時間無效', '节点时间无效'),
  NodeVersionMismatch: e(202008, 400, 'Node version mismatch', '節點版本不符', '节点版本不匹配'),
  ActiveGroup: e(203001, 400, 'Cannot delete an active group', '無法刪除啟用中的群組', '无法删除启用中的分组'),
  GroupInUse: e(203002, 400, 'Group in use', '群組使用中', '分组使用中'),
  GroupNodeLimit: e(203003, 400, 'Grouped node count at limit', '群組節點數量已達上限', '分组节点数量已达上限'),
  InvalidGroupNode: e(203005, 400, 'Invalid group node', '群組節點無效', '分组节点无效'),
  L4GroupInUse: e(204001, 400, 'Layer-4 group in use', '第四層群組使用中', '四层分组使用中'),
  ProductInUse: e(204002, 400, 'Product in use', '產品使用中', '产品使用中'),
  ProductSiteCountExceeded: e(204003, 400, 'Product site count exceeds limit', '產品網站數量超過上限', '产品网站数量超过上限'),
  SiteCountExceeded: e(205001, 400, 'Site count exceeds limit', '網站數量超過上限', '网站数量超过上限'),
  SiteStatusNotAllowed: e(205002, 400, 'Site status not allowed to be set', '不允許設定此網站狀態', '不允许设置此网站状态'),
  SiteInUse: e(205003, 400, 'Site in use', '網站使用中', '网站使用中'),
  SiteHasL4Ports: e(205004, 400, 'Site has layer-4 port settings', '網站已有第四層埠號設定', '网站已有四层端口设置'),
  SiteHasL7Domains: e(205005, 400, 'Site has a layer-7 domain setting', '網站已有第七層網域設定', '网站已有七层域名设置'),
  LiftTrafficLimit: e(205006, 400, 'Lift the traffic restrictions first', '請先解除流量限制', '请先解除流量限制'),
  RedirectRuleLimit: e(205007, 400, 'The redirect rule limit is 3000', '轉址規則上限為 3000', '重定向规则上限为 3000'),
  VirtualNodeInUse: e(206001, 400, 'Virtual node in use', '虛擬節點使用中', '虚拟节点使用中'),
  InvalidCertificateName: e(301001, 400, 'Invalid certificate name', '憑證名稱無效', '证书名称无效'),
  DuplicateDomain: e(401001, 409, 'Cannot enable duplicate domains', '無法啟用重複的網域', '无法启用重复的域名'),
  DomainCountExceeded: e(401002, 400, 'Domain count exceeds limit', '網域數量超過上限', '域名数量超过上限'),
  IllegalPortMapping: e(401003, 400, 'Site has no port {num} open', '網站未開放埠號 {num}', '网站未开放端口 {num}'),
  AutoSslCountExceeded: e(401004, 400, 'Auto SSL count exceeds limit', '自動 SSL 數量超過上限', '自动 SSL 数量超过上限'),
  PortCountExceeded: e(401007, 400, 'Port count exceeds limit', '埠號數量超過上限', '端口数量超过上限'),
  OriginRequired: e(401008, 400, 'At least one origin must be enabled', '至少需啟用一個來源', '至少需启用一个源站'),
  ConcurrentExportLimit: e(601001, 429, 'Simultaneous download limit reached ({num} records)', '已達同時下載上限（{num} 筆）', '已达同时下载上限（{num} 条）'),
  DailyExportLimit: e(601002, 429, 'Daily download limit reached ({num} records)', '已達每日下載上限（{num} 筆）', '已达每日下载上限（{num} 条）'),
  IllegalLicense: e(900001, 400, 'Illegal license', '授權不合法', '授权不合法'),
  DuplicateKeys: e(10102502, 409, 'Duplicate keys are not allowed', '不允許重複的鍵', '不允许重复的键'),
} as const;

export type ErrorName = keyof typeof ERRORS;
/** Named numeric codes: `Codes.Parameter === 101003`. */
export const Codes = Object.fromEntries(Object.entries(ERRORS).map(([k, v]) => [k, v.code])) as {
  [K in ErrorName]: (typeof ERRORS)[K]['code'];
};
export type ErrorCode = (typeof ERRORS)[ErrorName]['code'];

const byCode = new Map<number, Entry<ErrorCode>>(Object.values(ERRORS).map((v) => [v.code, v]));

export const isKnownCode = (code: number): code is ErrorCode => byCode.has(code);
export const statusOf = (code: number) => byCode.get(code)?.status ?? 500;
/** The catalogue message of a code in a language; `{num}` is filled from `num` when given. */
export function messageOf(code: number, lang: Language, num?: string | number): string | undefined {
  const entry = byCode.get(code);
  if (!entry) return undefined;
  return num === undefined ? entry[lang] : entry[lang].replace('{num}', String(num));
}

/**
 * The error body every non-2xx answer carries. Its codes are plain numbers: the API sends catalogue codes only
 * (ApiError takes an ErrorCode), but a console may meet a code newer than its own catalogue.
 */
export type ErrorBody = {
  code: number;
  message: string;
  extra?: unknown;
  errors?: { code: number; message: string; targets?: string[] }[];
};
