/**
 * A stand-in for Aliyun SMS (Dysmsapi 2017-05-25, `SendSms`) on 127.0.0.1,
 * written from Alibaba Cloud's public documents, not from its SDK:
 *
 * - "V3 request structure and signature" (ACS3-HMAC-SHA256): the server
 *   rebuilds the canonical request from what it received — the method, the
 *   path, the query sorted and RFC 3986-encoded, the headers named in
 *   SignedHeaders (every `host`, `content-type` and `x-acs-*` header must be
 *   among them), the SHA-256 of the body — and compares the HMAC-SHA256 of
 *   `ACS3-HMAC-SHA256\n<hex sha256 of it>` under the key's secret. A wrong one
 *   is `SignatureDoesNotMatch`, an unknown key `InvalidAccessKeyId.NotFound`,
 *   an `x-acs-date` more than 15 minutes away `InvalidTimeStamp.Expired`, a
 *   nonce seen before `SignatureNonceUsed`.
 * - "SendSms" and its error codes: PhoneNumbers (a mainland number, bare or
 *   with +/+86/0086/86; elsewhere country code and number), SignName,
 *   TemplateCode, TemplateParam (a JSON object of the template's variables).
 *   Answers `{RequestId, Code, Message, BizId}` with HTTP 200, `Code` "OK" or
 *   the documented `isv.*` code.
 *
 * Every accepted message is kept in `received`. `failNext(code)` makes the
 * next signed call answer that code as Aliyun answers it; `hang()` holds every
 * call unanswered until `release()` or `close()`. `settings()` gives the
 * ALIYUN_SMS_* settings that point a server at it.
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messageKinds, smsKinds, type MessageKind } from '../../server/messages/kinds.ts';

/** A request as the signature sees it; `headers` are the signed ones, by lower-case name. */
export interface Acs3Request {
  method: string;
  /** The resource path, not yet encoded (`/` for an RPC API such as SendSms). */
  path: string;
  /** The query's parameters, decoded, in any order. */
  query: ReadonlyArray<readonly [string, string]>;
  headers: Readonly<Record<string, string>>;
  body: string | Buffer;
}

const algorithm = 'ACS3-HMAC-SHA256';
const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** RFC 3986 encoding as the document asks: only A–Z, a–z, 0–9, `-`, `_`, `.` and `~` left as they are. */
const percentEncode = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

/** The canonical request, the string to sign and the signature (lower-case hex) of `request` under `secret`. */
export function acs3Sign(request: Acs3Request, secret: string): { canonicalRequest: string; stringToSign: string; signature: string } {
  const canonicalUri = request.path.split('/').map(percentEncode).join('/') || '/';
  const canonicalQuery = request.query
    .map(([name, value]) => [percentEncode(name), percentEncode(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const names = Object.keys(request.headers).sort();
  const canonicalHeaders = names.map((name) => `${name}:${request.headers[name].trim()}\n`).join('');
  const canonicalRequest = [request.method.toUpperCase(), canonicalUri, canonicalQuery, canonicalHeaders, names.join(';'), sha256Hex(request.body)].join('\n');
  const stringToSign = `${algorithm}\n${sha256Hex(canonicalRequest)}`;
  return { canonicalRequest, stringToSign, signature: createHmac('sha256', secret).update(stringToSign).digest('hex') };
}

/** The `Authorization` header of `request` signed by `accessKeyId` with `secret`. */
export function acs3Authorization(accessKeyId: string, request: Acs3Request, secret: string): string {
  const signedHeaders = Object.keys(request.headers).sort().join(';');
  return `${algorithm} Credential=${accessKeyId},SignedHeaders=${signedHeaders},Signature=${acs3Sign(request, secret).signature}`;
}

/** A message the fake accepted, as a phone would receive it. */
export interface ReceivedSms {
  /** One number of PhoneNumbers, as sent (`13800138000`, `85261234567`). */
  phoneNumber: string;
  signName: string;
  templateCode: string;
  /** TemplateParam, parsed. */
  params: Record<string, string>;
  bizId: string;
  at: Date;
}

export interface FakeAliyunSmsOptions {
  port?: number;
  accessKeyId?: string;
  accessKeySecret?: string;
  signName?: string;
}

export interface FakeAliyunSms {
  /** `http://127.0.0.1:<port>`: ALIYUN_SMS_ENDPOINT. */
  url: string;
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  /** The approved templates: a code per SMS message kind, for mainland numbers and for the others; each takes its kind's parameters. */
  templates: { domestic: Record<MessageKind, string>; international: Record<MessageKind, string> };
  /** SMS_PROVIDER=aliyun and the ALIYUN_SMS_* settings for this fake; `international: false` leaves the international templates unset. */
  settings(options?: { international?: boolean }): Record<string, string>;
  /** Every message accepted, oldest first. */
  readonly received: ReceivedSms[];
  /** Every call that reached the fake, signed or not, answered or held. */
  readonly calls: number;
  /** The next `times` well-signed calls answer `code` (`isv.BUSINESS_LIMIT_CONTROL`, `SignatureDoesNotMatch`, …) as Aliyun does, sending nothing. */
  failNext(code: string, times?: number): void;
  /** Holds every call from now on without an answer, until `release()`. */
  hang(): void;
  /** Answers the held calls (as if they had just come) and stops holding. */
  release(): void;
  close(): Promise<void>;
}

/** Aliyun's answers for the codes the fake gives: the HTTP status and Message (its gateway's codes are 4xx, SendSms's own 200). */
const answers: Record<string, { status: number; message: string }> = {
  SignatureDoesNotMatch: { status: 400, message: 'Specified signature does not match our calculation.' },
  'InvalidAccessKeyId.NotFound': { status: 404, message: 'Specified access key is not found.' },
  IncompleteSignature: { status: 400, message: 'The request signature does not conform to Aliyun standards.' },
  'InvalidTimeStamp.Expired': { status: 400, message: 'Specified time stamp or date value is expired.' },
  SignatureNonceUsed: { status: 400, message: 'Specified signature nonce was used already.' },
  'InvalidAction.NotFound': { status: 404, message: 'Specified api is not found, please check your url and method.' },
  InvalidVersion: { status: 400, message: 'Specified parameter Version is not valid.' },
  'Throttling.User': { status: 400, message: 'Request was denied due to user flow control.' },
  'isv.BUSINESS_LIMIT_CONTROL': { status: 200, message: '触发分钟级流控Permits:1' },
  'isv.DAY_LIMIT_CONTROL': { status: 200, message: '触发日发送限额' },
  'isv.MONTH_LIMIT_CONTROL': { status: 200, message: '触发月发送限额' },
  'isv.MOBILE_NUMBER_ILLEGAL': { status: 200, message: '非法手机号' },
  'isv.MOBILE_COUNT_OVER_LIMIT': { status: 200, message: '手机号码数量超过限制' },
  'isv.DOMESTIC_NUMBER_NOT_SUPPORTED': { status: 200, message: '国际/港澳台消息模板不支持发送境内号码' },
  'isv.AMOUNT_NOT_ENOUGH': { status: 200, message: '账户余额不足' },
  'isv.OUT_OF_SERVICE': { status: 200, message: '业务停机' },
  'isv.ACCOUNT_ABNORMAL': { status: 200, message: '账户异常' },
  'isv.SMS_TEMPLATE_ILLEGAL': { status: 200, message: '该账号下找不到对应模板' },
  'isv.SMS_SIGNATURE_ILLEGAL': { status: 200, message: '该账号下找不到对应签名' },
  'isv.TEMPLATE_MISSING_PARAMETERS': { status: 200, message: '模板缺少变量' },
  'isv.INVALID_JSON_PARAM': { status: 200, message: 'JSON参数不合法，只接受字符串值' },
  'isv.INVALID_PARAMETERS': { status: 200, message: '参数异常' },
  'isp.SYSTEM_ERROR': { status: 200, message: '系统错误' },
};
const answerOf = (code: string) => answers[code] ?? { status: 200, message: code };

/** How far `x-acs-date` may be from now ("a time within 15 minutes before the request is sent"). */
const dateWindowMs = 15 * 60_000;
const mainland = /^(?:\+|\+86|0086|86)?(1\d{10})$/;
const international = /^[1-9]\d{6,14}$/;
const batchLimit = 1000;

/** Starts the fake on 127.0.0.1 (a free port unless `port` is given). */
export async function startFakeAliyunSms(options: FakeAliyunSmsOptions = {}): Promise<FakeAliyunSms> {
  const accessKeyId = options.accessKeyId ?? `LTAI${randomBytes(10).toString('hex')}`;
  const accessKeySecret = options.accessKeySecret ?? randomBytes(15).toString('base64url');
  const signName = options.signName ?? '信标工具箱';
  const numbered = (base: number) => Object.fromEntries(smsKinds.map((kind, index) => [kind, `SMS_${base + index}`])) as Record<MessageKind, string>;
  const templates = { domestic: numbered(460_000_100), international: numbered(460_000_200) };
  const byCode = new Map<string, { kind: MessageKind; international: boolean }>();
  for (const kind of smsKinds) {
    byCode.set(templates.domestic[kind], { kind, international: false });
    byCode.set(templates.international[kind], { kind, international: true });
  }

  const received: ReceivedSms[] = [];
  const failures: string[] = [];
  const seenNonces = new Map<string, number>();
  const held: Array<() => void> = [];
  let holding = false;
  let calls = 0;

  function answer(response: ServerResponse, code: string, extra: Record<string, string> = {}, message?: string) {
    const { status, message: documented } = answerOf(code);
    response.writeHead(status, { 'content-type': 'application/json;charset=utf-8' });
    response.end(JSON.stringify({ RequestId: randomUUID().toUpperCase(), Code: code, Message: message ?? documented, ...extra }));
  }

  /** The signature check of the V3 document; the code of the refusal, or null for a good signature. */
  function refusal(request: IncomingMessage, path: string, query: Array<[string, string]>, body: Buffer): string | null {
    const match = /^ACS3-HMAC-SHA256 Credential=([^,]+),SignedHeaders=([^,]+),Signature=([0-9a-f]{64})$/.exec(request.headers.authorization ?? '');
    if (!match) return 'IncompleteSignature';
    const [, keyId, signedList, signature] = match;
    if (keyId !== accessKeyId) return 'InvalidAccessKeyId.NotFound';
    const signed = signedList.split(';');
    const mustSign = Object.keys(request.headers).filter((name) => name === 'host' || name === 'content-type' || name.startsWith('x-acs-'));
    const required = ['host', 'x-acs-action', 'x-acs-version', 'x-acs-date', 'x-acs-signature-nonce', 'x-acs-content-sha256'];
    if ([...mustSign, ...required].some((name) => !signed.includes(name)) || signed.some((name) => request.headers[name] === undefined))
      return 'IncompleteSignature';
    const headers = Object.fromEntries(signed.map((name) => [name, String(request.headers[name])]));
    const expected = acs3Sign({ method: request.method!, path, query, headers, body }, accessKeySecret).signature;
    if (!timingSafeEqual(Buffer.from(expected), Buffer.from(signature))) return 'SignatureDoesNotMatch';
    const date = Date.parse(headers['x-acs-date']);
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(headers['x-acs-date']) || !(Math.abs(Date.now() - date) <= dateWindowMs)) return 'InvalidTimeStamp.Expired';
    const nonce = headers['x-acs-signature-nonce'];
    for (const [seen, at] of seenNonces) if (at < Date.now() - 2 * dateWindowMs) seenNonces.delete(seen);
    if (seenNonces.has(nonce)) return 'SignatureNonceUsed';
    seenNonces.set(nonce, Date.now());
    if (headers['x-acs-action'] !== 'SendSms') return 'InvalidAction.NotFound';
    if (headers['x-acs-version'] !== '2017-05-25') return 'InvalidVersion';
    return null;
  }

  /** SendSms itself, once the call is signed: checks the sign, the template and its variables, and each number. */
  function sendSms(response: ServerResponse, params: Map<string, string>) {
    const failure = failures.shift();
    if (failure) return answer(response, failure);
    const numbers = (params.get('PhoneNumbers') ?? '').split(',').filter(Boolean);
    const signNameGiven = params.get('SignName');
    const templateCode = params.get('TemplateCode');
    if (numbers.length === 0 || !signNameGiven || !templateCode) return answer(response, 'isv.INVALID_PARAMETERS');
    if (signNameGiven !== signName) return answer(response, 'isv.SMS_SIGNATURE_ILLEGAL');
    const template = byCode.get(templateCode);
    if (!template) return answer(response, 'isv.SMS_TEMPLATE_ILLEGAL');
    let values: unknown;
    try {
      values = JSON.parse(params.get('TemplateParam') ?? '{}');
    } catch {
      return answer(response, 'isv.INVALID_JSON_PARAM');
    }
    if (typeof values !== 'object' || values === null || Array.isArray(values) || Object.values(values).some((value) => typeof value !== 'string'))
      return answer(response, 'isv.INVALID_JSON_PARAM');
    const given = values as Record<string, string>;
    const missing = messageKinds[template.kind].params.filter((name) => !given[name]);
    if (missing.length > 0) return answer(response, 'isv.TEMPLATE_MISSING_PARAMETERS', {}, `模板缺少变量: ${missing.join(',')}`);
    if (numbers.length > batchLimit) return answer(response, 'isv.MOBILE_COUNT_OVER_LIMIT');
    for (const number of numbers) {
      if (template.international && mainland.test(number)) return answer(response, 'isv.DOMESTIC_NUMBER_NOT_SUPPORTED');
      if (!(template.international ? international.test(number) : mainland.test(number))) return answer(response, 'isv.MOBILE_NUMBER_ILLEGAL');
    }
    const bizId = `${Date.now()}${randomBytes(4).readUInt32BE() % 1000}^0`;
    for (const phoneNumber of numbers) received.push({ phoneNumber, signName, templateCode, params: given, bizId, at: new Date() });
    answer(response, 'OK', { BizId: bizId }, 'OK');
  }

  const server = createServer((request, response) => {
    calls++;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const handle = () => {
        const body = Buffer.concat(chunks);
        const [rawPath, rawQuery = ''] = (request.url ?? '/').split('?', 2);
        const decode = (part: string) => decodeURIComponent(part);
        const pairs = (text: string) =>
          text
            .split('&')
            .filter(Boolean)
            .map((pair) => {
              const at = pair.indexOf('=');
              return (at < 0 ? [decode(pair), ''] : [decode(pair.slice(0, at)), decode(pair.slice(at + 1))]) as [string, string];
            });
        let query: Array<[string, string]>;
        try {
          query = pairs(rawQuery);
        } catch {
          return answer(response, 'SignatureDoesNotMatch');
        }
        const path = rawPath.split('/').map(decode).join('/');
        const refused = refusal(request, path, query, body);
        if (refused) return answer(response, refused);
        // Parameters "in formData" come in the body, the others in the query (the V3 document's RequestPayload).
        const form = String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')
          ? [...new URLSearchParams(body.toString())]
          : [];
        sendSms(response, new Map([...query, ...form]));
      };
      if (holding) held.push(handle);
      else handle();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const list = (map: Record<MessageKind, string>) => smsKinds.map((kind) => `${kind}=${map[kind]}`).join(',');

  return {
    url,
    accessKeyId,
    accessKeySecret,
    signName,
    templates,
    settings: ({ international: withInternational = true } = {}) => ({
      SMS_PROVIDER: 'aliyun',
      ALIYUN_SMS_ENDPOINT: url,
      ALIYUN_SMS_ACCESS_KEY_ID: accessKeyId,
      ALIYUN_SMS_ACCESS_KEY_SECRET: accessKeySecret,
      ALIYUN_SMS_SIGN_NAME: signName,
      ALIYUN_SMS_TEMPLATES: list(templates.domestic),
      ...(withInternational ? { ALIYUN_SMS_INTERNATIONAL_TEMPLATES: list(templates.international) } : {}),
    }),
    received,
    get calls() {
      return calls;
    },
    failNext(code, times = 1) {
      for (let i = 0; i < times; i++) failures.push(code);
    },
    hang() {
      holding = true;
    },
    release() {
      holding = false;
      for (const handle of held.splice(0)) handle();
    },
    async close() {
      holding = false;
      held.length = 0;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
