/**
 * Tencent Cloud SMS (API 2021-01-11, `SendSms`) for tests: an HTTP server on
 * 127.0.0.1 written from Tencent Cloud's public documents, not from its SDK —
 * "Signature v3" (TC3-HMAC-SHA256), the common parameters (X-TC-* headers, a
 * timestamp at most five minutes off), "Responses" (HTTP 200 with
 * `Response.Error` for a refused call) and SendSms's page (its parameters, its
 * `SendStatusSet`, its error codes).
 *
 * It checks what Tencent checks: the Authorization header's signature
 * (canonical request, string to sign, the derived keys, the signed headers,
 * the credential's date and service), the SecretId, the timestamp, the action,
 * version and region; then the SdkAppId, and per number its form, the template
 * (approved, domestic or international as the number is), the sign for a
 * mainland number and the count of template parameters. What it accepts it
 * records (`received`), as a phone receives it. A test can make the next call
 * answer an error code of its choice (`failNext`) or no answer at all (`hang`).
 *
 * Two points the documents leave open, decided here: the canonical `host` is
 * the Host header's name without its port (Tencent's endpoints have none), and
 * the credential's service must be the first label of that name, as the
 * document asks it to "match the domain name of the product called": `sms` for
 * sms.tencentcloudapi.com, `127` for this server at 127.0.0.1.
 *
 * Use: `const fake = await startFakeTencentSms()`, start the app with
 * `fake.settings` in its environment (SMS_PROVIDER=tencent and every
 * TENCENT_SMS_* setting, pointed at `fake.url`), read `fake.received`, and
 * `await fake.close()` at the end.
 */
import { buffer } from 'node:stream/consumers';
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messageKinds, smsKinds, type MessageKind } from '../../server/messages/kinds.ts';

// ---- TC3-HMAC-SHA256, as "Signature v3" describes it ----

/** What a TC3-HMAC-SHA256 signature covers. */
export interface Tc3Request {
  /** `POST` or `GET`. */
  method: string;
  /** The CanonicalURI: `/` for API 3.0. */
  path: string;
  /** The CanonicalQueryString, URL-encoded: empty for a POST. */
  query: string;
  /** The signed headers, by lower-case name (content-type and host at least). */
  headers: Record<string, string>;
  /** The request body, hashed as it is sent. */
  payload: string | Buffer;
  /** X-TC-Timestamp: seconds since 1970. */
  timestamp: number;
  /** The product's name in the credential scope: `cvm`, `sms`. */
  service: string;
}

/** Each step's result, as the document prints them. */
export interface Tc3Signed {
  canonicalRequest: string;
  hashedCanonicalRequest: string;
  /** `2019-02-25/cvm/tc3_request`. */
  credentialScope: string;
  stringToSign: string;
  /** Lower-case hex. */
  signature: string;
  signedHeaders: string;
}

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** The UTC date of a timestamp, as the credential scope writes it. */
export const tc3Date = (timestamp: number) => new Date(timestamp * 1000).toISOString().slice(0, 10);

/** Signs `request` with `secretKey` as the document's steps 1 to 3 do. */
export function tc3Sign(request: Tc3Request, secretKey: string): Tc3Signed {
  const names = Object.keys(request.headers)
    .map((name) => name.toLowerCase())
    .sort();
  const value = (name: string) => Object.entries(request.headers).find(([key]) => key.toLowerCase() === name)![1];
  const canonicalHeaders = names.map((name) => `${name}:${value(name).trim().toLowerCase()}\n`).join('');
  const signedHeaders = names.join(';');
  const canonicalRequest = [request.method, request.path, request.query, canonicalHeaders, signedHeaders, sha256Hex(request.payload)].join('\n');
  const date = tc3Date(request.timestamp);
  const credentialScope = `${date}/${request.service}/tc3_request`;
  const hashedCanonicalRequest = sha256Hex(canonicalRequest);
  const stringToSign = ['TC3-HMAC-SHA256', String(request.timestamp), credentialScope, hashedCanonicalRequest].join('\n');
  const secretSigning = hmac(hmac(hmac(`TC3${secretKey}`, date), request.service), 'tc3_request');
  const signature = createHmac('sha256', secretSigning).update(stringToSign).digest('hex');
  return { canonicalRequest, hashedCanonicalRequest, credentialScope, stringToSign, signature, signedHeaders };
}

/** The Authorization header of a signed request (step 4). */
export const tc3Authorization = (secretId: string, signed: Tc3Signed) =>
  `TC3-HMAC-SHA256 Credential=${secretId}/${signed.credentialScope}, SignedHeaders=${signed.signedHeaders}, Signature=${signed.signature}`;

const authorizationPattern =
  /^TC3-HMAC-SHA256 Credential=([^/\s]+)\/(\d{4}-\d{2}-\d{2})\/([^/\s]+)\/tc3_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/;

// ---- The fake endpoint ----

export interface FakeTencentSmsOptions {
  secretId?: string;
  secretKey?: string;
  sdkAppId?: string;
  /** The approved sign, which every SMS to a mainland number must carry. */
  signName?: string;
  region?: string;
  /** How far X-TC-Timestamp may be from the fake's clock: five minutes, as Tencent's. */
  timestampToleranceSeconds?: number;
}

/** A message the fake accepted, one per number. */
export interface ReceivedSms {
  /** E.164, as Tencent answers it: `+8613800138000`. */
  phoneNumber: string;
  templateId: string;
  /** The message kind the template was approved for. */
  kind: MessageKind;
  international: boolean;
  /** TemplateParamSet, in order. */
  params: string[];
  signName: string | undefined;
  /** The id Tencent answers for it. */
  serialNo: string;
}

/** Where a chosen error code is answered: as the call's `Response.Error`, or as each number's `SendStatusSet[].Code`. */
export type FailureLevel = 'request' | 'number';

export interface FakeTencentSms {
  /** `http://127.0.0.1:<port>`: TENCENT_SMS_ENDPOINT. */
  url: string;
  secretId: string;
  secretKey: string;
  sdkAppId: string;
  signName: string;
  region: string;
  /** The approved template ids per message kind: for mainland numbers and for the others. */
  templates: { domestic: Record<MessageKind, string>; international: Record<MessageKind, string> };
  /** The app's environment for this fake: SMS_PROVIDER=tencent and every TENCENT_SMS_* setting. */
  settings: Record<string, string>;
  /** Every message accepted so far, oldest first. */
  readonly received: ReadonlyArray<ReceivedSms>;
  /** Every HTTP request that reached the fake, whatever it was answered. */
  readonly requests: number;
  /** The next call that passes the signature check is answered `code` (a SendSms or common error code) and sends nothing. */
  failNext(code: string, level?: FailureLevel): void;
  /** The next call is never answered (held until `close`), as a provider that does not answer. */
  hang(): void;
  close(): Promise<void>;
}

type Planned = { hang: true } | { hang: false; code: string; level: FailureLevel };

/** A refusal of the whole call, as `Response.Error`. */
class ApiRefusal extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** A number as SendSms takes it (E.164, or a mainland number as 11 digits with or without 86 or 0086), or null when it is not one. */
function e164Of(number: string): string | null {
  const mainland = /^(?:\+86|0086|86)?(1\d{10})$/.exec(number);
  if (mainland) return `+86${mainland[1]}`;
  return /^\+[1-9]\d{5,14}$/.test(number) && !number.startsWith('+86') ? number : null;
}

/** Starts the fake on 127.0.0.1 (a free port unless given). */
export async function startFakeTencentSms(options: FakeTencentSmsOptions & { port?: number } = {}): Promise<FakeTencentSms> {
  const secretId = options.secretId ?? `AKID${randomBytes(16).toString('hex')}`;
  const secretKey = options.secretKey ?? randomBytes(24).toString('base64url');
  const sdkAppId = options.sdkAppId ?? '1400006666';
  const signName = options.signName ?? '信标工具箱';
  const region = options.region ?? 'ap-guangzhou';
  const toleranceSeconds = options.timestampToleranceSeconds ?? 300;
  const ids = (first: number) => Object.fromEntries(smsKinds.map((kind, index) => [kind, String(first + index)])) as Record<MessageKind, string>;
  const templates = { domestic: ids(1_100_001), international: ids(2_200_001) };
  const approved = new Map<string, { kind: MessageKind; international: boolean }>();
  for (const kind of smsKinds) {
    approved.set(templates.domestic[kind], { kind, international: false });
    approved.set(templates.international[kind], { kind, international: true });
  }

  const received: ReceivedSms[] = [];
  const planned: Planned[] = [];
  let requests = 0;
  let serial = 0;

  /** Checks the call's signature as Tencent does, or throws the refusal Tencent answers. */
  function authenticate(request: IncomingMessage, payload: Buffer): void {
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const parsed = authorizationPattern.exec(header('authorization') ?? '');
    if (!parsed) throw new ApiRefusal('AuthFailure.InvalidAuthorization', 'The Authorization header is not TC3-HMAC-SHA256.');
    const [, id, date, service, signedHeaders, signature] = parsed;
    const names = signedHeaders.split(';');
    if (!names.includes('content-type') || !names.includes('host') || names.some((name) => header(name) === undefined))
      throw new ApiRefusal('AuthFailure.InvalidAuthorization', 'SignedHeaders must name content-type, host and only headers the request has.');
    const timestamp = Number(header('x-tc-timestamp'));
    if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds)
      throw new ApiRefusal('AuthFailure.SignatureExpire', 'The X-TC-Timestamp is too far from the server time.');
    if (id !== secretId) throw new ApiRefusal('AuthFailure.SecretIdNotFound', 'The SecretId is not found.');
    const host = new URL(`http://${header('host')}`).hostname;
    const signed = tc3Sign(
      {
        method: request.method ?? '',
        path: new URL(request.url ?? '/', 'http://x').pathname,
        query: new URL(request.url ?? '/', 'http://x').search.slice(1),
        headers: Object.fromEntries(names.map((name) => [name, name === 'host' ? host : header(name)!])),
        payload,
        timestamp,
        service: host.split('.')[0],
      },
      secretKey,
    );
    const given = Buffer.from(signature, 'hex');
    if (date !== tc3Date(timestamp) || service !== host.split('.')[0] || !timingSafeEqual(given, Buffer.from(signed.signature, 'hex')))
      throw new ApiRefusal('AuthFailure.SignatureFailure', 'The provided credentials could not be validated. Please check your signature is correct.');
  }

  /** SendSms on an authenticated call: its `Response`, without the RequestId. */
  function sendSms(request: IncomingMessage, payload: Buffer): Record<string, unknown> {
    if (request.headers['x-tc-action'] !== 'SendSms') throw new ApiRefusal('InvalidAction', 'The action does not exist.');
    if (request.headers['x-tc-version'] !== '2021-01-11') throw new ApiRefusal('NoSuchVersion', 'The API version does not exist.');
    if (request.headers['x-tc-region'] !== region) throw new ApiRefusal('UnsupportedRegion', `The region is not ${region}.`);
    if (!String(request.headers['content-type']).startsWith('application/json')) throw new ApiRefusal('InvalidParameter', 'The body is not JSON.');
    let body: { PhoneNumberSet?: unknown; SmsSdkAppId?: unknown; TemplateId?: unknown; SignName?: unknown; TemplateParamSet?: unknown };
    try {
      body = JSON.parse(payload.toString('utf8')) as typeof body;
    } catch {
      throw new ApiRefusal('FailedOperation.JsonParseFail', 'The body could not be parsed.');
    }
    const failure = planned[0] && !planned[0].hang ? (planned.shift() as Extract<Planned, { hang: false }>) : null;
    if (failure?.level === 'request') throw new ApiRefusal(failure.code, `The fake was told to answer ${failure.code}.`);
    const numbers = body.PhoneNumberSet;
    if (!Array.isArray(numbers) || numbers.length === 0) throw new ApiRefusal('MissingParameter.EmptyPhoneNumberSet', 'PhoneNumberSet is empty.');
    if (numbers.length > 200) throw new ApiRefusal('LimitExceeded.PhoneNumberCountLimit', 'More than 200 numbers.');
    if (body.SmsSdkAppId !== sdkAppId) throw new ApiRefusal('UnauthorizedOperation.SmsSdkAppIdVerifyFail', 'The SmsSdkAppId is not of this account.');
    if (typeof body.TemplateId !== 'string') throw new ApiRefusal('MissingParameter', 'TemplateId is missing.');
    const params = body.TemplateParamSet ?? [];
    if (!Array.isArray(params) || params.some((param) => typeof param !== 'string'))
      throw new ApiRefusal('InvalidParameter', 'TemplateParamSet is not strings.');
    const sign = typeof body.SignName === 'string' ? body.SignName : undefined;
    const e164s = numbers.map((number) => (typeof number === 'string' ? e164Of(number) : null));
    const mainland = e164s.map((number) => number?.startsWith('+86'));
    if (mainland.includes(true) && mainland.includes(false))
      throw new ApiRefusal('UnsupportedOperation.ContainDomesticAndInternationalPhoneNumber', 'Both mainland and other numbers.');
    const template = approved.get(body.TemplateId);
    const SendStatusSet = numbers.map((number, index) => {
      const e164 = e164s[index];
      const code =
        failure?.code ??
        (e164 === null
          ? 'InvalidParameterValue.IncorrectPhoneNumber'
          : !template
            ? 'FailedOperation.TemplateUnapprovedOrNotExist'
            : !template.international && !mainland[index]
              ? 'UnsupportedOperation.ChineseMainlandTemplateToGlobalPhone'
              : template.international && mainland[index]
                ? 'UnsupportedOperation.GlobalTemplateToChineseMainlandPhone'
                : (mainland[index] || sign !== undefined) && sign !== signName
                  ? 'FailedOperation.SignatureIncorrectOrUnapproved'
                  : params.length !== messageKinds[template.kind].params.length
                    ? 'FailedOperation.TemplateParamSetNotMatchApprovedTemplate'
                    : 'Ok');
      const status = { PhoneNumber: e164 ?? String(number), SessionContext: '', IsoCode: mainland[index] ? 'CN' : '' };
      if (code !== 'Ok') return { ...status, SerialNo: '', Fee: 0, Code: code, Message: `refused: ${code}` };
      const serialNo = `5000:${Date.now()}${String(++serial).padStart(8, '0')}`;
      received.push({
        phoneNumber: e164!,
        templateId: body.TemplateId as string,
        kind: template!.kind,
        international: template!.international,
        params,
        signName: sign,
        serialNo,
      });
      return { ...status, SerialNo: serialNo, Fee: 1, Code: 'Ok', Message: 'send success' };
    });
    return { SendStatusSet };
  }

  function answer(response: ServerResponse, fields: Record<string, unknown>) {
    // Every call Tencent handled is HTTP 200, a refusal included ("Responses").
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ Response: { ...fields, RequestId: randomUUID() } }));
  }

  const server = createServer((request, response) => {
    requests++;
    if (planned[0]?.hang) {
      planned.shift();
      return;
    }
    buffer(request)
      .then((payload) => {
        try {
          authenticate(request, payload);
          answer(response, sendSms(request, payload));
        } catch (error) {
          if (!(error instanceof ApiRefusal)) throw error;
          answer(response, { Error: { Code: error.code, Message: error.message } });
        }
      })
      .catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const list = (map: Record<MessageKind, string>) => smsKinds.map((kind) => `${kind}=${map[kind]}`).join(',');

  return {
    url,
    secretId,
    secretKey,
    sdkAppId,
    signName,
    region,
    templates,
    settings: {
      SMS_PROVIDER: 'tencent',
      TENCENT_SMS_SECRET_ID: secretId,
      TENCENT_SMS_SECRET_KEY: secretKey,
      TENCENT_SMS_SDK_APP_ID: sdkAppId,
      TENCENT_SMS_SIGN_NAME: signName,
      TENCENT_SMS_TEMPLATES: list(templates.domestic),
      TENCENT_SMS_INTERNATIONAL_TEMPLATES: list(templates.international),
      TENCENT_SMS_REGION: region,
      TENCENT_SMS_ENDPOINT: url,
    },
    received,
    get requests() {
      return requests;
    },
    failNext(code, level = 'number') {
      planned.push({ hang: false, code, level });
    },
    hang() {
      planned.push({ hang: true });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
