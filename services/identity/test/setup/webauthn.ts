import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { type CBORType, encodeCBOR } from '@levischuck/tiny-cbor';

/**
 * A software authenticator, enough to play the browser's and the device's part of WebAuthn in tests: an ES256
 * (P-256) key made with node:crypto, `clientDataJSON` and `authenticatorData` built byte by byte as the
 * specification lays them out, a `none` attestation object in CBOR, and signed assertions. What it answers has the
 * shape @simplewebauthn/browser gives the passkey client (RegistrationResponseJSON, AuthenticationResponseJSON,
 * without `clientExtensionResults`, which the client strips before sending).
 *
 * Every field a check looks at can be overridden per call (origin, relying party id, challenge, user verification,
 * counter), so a test can present exactly the wrong thing it means to.
 */

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

/** COSE: key type EC2, algorithm ES256, curve P-256 (RFC 9053). */
const COSE = { kty: 1, alg: 3, crv: -1, x: -2, y: -3, EC2: 2, ES256: -7, P256: 1 } as const;

const b64url = (bytes: Uint8Array | Buffer): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

export interface CeremonyOverrides {
  /** The page the browser says the ceremony ran on (default: the authenticator's origin). */
  origin?: string;
  /** The relying party id hashed into the authenticator data (default: the options' id). */
  rpId?: string;
  /** The challenge the browser signs (default: the options'). */
  challenge?: string;
  /** The client data's type (default: webauthn.create or webauthn.get). */
  type?: string;
  /** Whether the user verified (PIN, biometrics) this time (default: the authenticator's setting). */
  userVerified?: boolean;
  /** The signature counter to report (default: one more than the last one, or 0 for a counterless device). */
  counter?: number;
}

export interface RegistrationResponse {
  id: string;
  rawId: string;
  type: 'public-key';
  authenticatorAttachment: 'platform' | 'cross-platform';
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
}

export interface AuthenticationResponse {
  id: string;
  rawId: string;
  type: 'public-key';
  authenticatorAttachment: 'platform' | 'cross-platform';
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle: string | null };
}

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(32);
  /** The random user handle the registration options gave (a discoverable credential answers it at sign-in). */
  private userHandle: string | null = null;
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private signCount: number;

  constructor(
    readonly options: {
      /** The page origin the browser reports. */
      origin: string;
      /** Whether the device verifies its user (default true). */
      userVerification?: boolean;
      /** A device that keeps no signature counter always reports 0 (default: it counts from 0 up). */
      counterless?: boolean;
      /** A synced (multi-device) passkey: the backup-eligible and backed-up flags. */
      synced?: boolean;
      transports?: string[];
    },
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
    this.signCount = 0;
  }

  /** The credential id as the service stores and answers it (base64url). */
  get id(): string {
    return b64url(this.credentialId);
  }

  /** The counter this device reported last. */
  get counter(): number {
    return this.signCount;
  }

  /** navigator.credentials.create() for the options of generate-register-options. */
  create(
    options: { challenge: string; rp: { id?: string }; user: { id: string } },
    overrides: CeremonyOverrides = {},
  ): RegistrationResponse {
    this.userHandle = options.user.id;
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, overrides);
    const jwk = this.publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, number | Uint8Array>([
      [COSE.kty, COSE.EC2],
      [COSE.alg, COSE.ES256],
      [COSE.crv, COSE.P256],
      [COSE.x, Buffer.from(jwk.x!, 'base64url')],
      [COSE.y, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      this.authDataHead(overrides.rpId ?? options.rp.id!, overrides, FLAG_AT, 0),
      Buffer.alloc(16), // AAGUID: all zeros, as a privacy-preserving authenticator reports under `none`
      idLength,
      this.credentialId,
      Buffer.from(encodeCBOR(coseKey)),
    ]);
    const attestationObject = encodeCBOR(
      new Map<string, CBORType>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, CBORType>()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: b64url(Buffer.from(clientDataJSON)),
        attestationObject: b64url(attestationObject),
        transports: this.options.transports ?? ['hybrid', 'internal'],
      },
    };
  }

  /** navigator.credentials.get() for the options of generate-authenticate-options. */
  get(options: { challenge: string; rpId?: string }, overrides: CeremonyOverrides = {}): AuthenticationResponse {
    const counter = overrides.counter ?? (this.options.counterless ? 0 : this.signCount + 1);
    if (overrides.counter === undefined) this.signCount = counter;
    const clientDataJSON = Buffer.from(this.clientData('webauthn.get', options.challenge, overrides));
    const authData = this.authDataHead(overrides.rpId ?? options.rpId!, overrides, 0, counter);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: this.userHandle,
      },
    };
  }

  private clientData(type: string, challenge: string, overrides: CeremonyOverrides): string {
    return JSON.stringify({
      type: overrides.type ?? type,
      challenge: overrides.challenge ?? challenge,
      origin: overrides.origin ?? this.options.origin,
      crossOrigin: false,
    });
  }

  /** rpIdHash (32 bytes), flags (1), signCount (4, big-endian). */
  private authDataHead(rpId: string, overrides: CeremonyOverrides, extraFlags: number, counter: number): Buffer {
    const verified = overrides.userVerified ?? this.options.userVerification ?? true;
    let flags = FLAG_UP | extraFlags;
    if (verified) flags |= FLAG_UV;
    if (this.options.synced) flags |= FLAG_BE | FLAG_BS;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count]);
  }
}
