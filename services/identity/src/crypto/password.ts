import argon2 from 'argon2';
import type { Argon2Config } from '../config';
import { randomString } from './random';

export interface VerifyResult {
  ok: boolean;
  /** The stored hash uses other parameters than the configured ones: rehash after a successful sign-in. */
  needsRehash: boolean;
}

/** argon2id with the configured (OWASP) parameters; a dummy hash keeps unknown-account timing identical. */
export class PasswordHasher {
  private readonly options: argon2.Options & { raw?: false };
  private dummyHash: Promise<string>;

  constructor(
    params: Argon2Config,
    /** Told how long each hash and verify took (metrics). */
    private readonly observe: (op: 'hash' | 'verify', seconds: number) => void = () => {},
  ) {
    this.options = {
      type: argon2.argon2id,
      memoryCost: params.memoryKiB,
      timeCost: params.timeCost,
      parallelism: params.parallelism,
    };
    this.dummyHash = this.hash(randomString(24));
  }

  async hash(password: string): Promise<string> {
    const started = process.hrtime.bigint();
    try {
      return await argon2.hash(password, this.options);
    } finally {
      this.observe('hash', Number(process.hrtime.bigint() - started) / 1e9);
    }
  }

  async verify(hash: string | null | undefined, password: string): Promise<VerifyResult> {
    const started = process.hrtime.bigint();
    try {
      return await this.check(hash, password);
    } finally {
      this.observe('verify', Number(process.hrtime.bigint() - started) / 1e9);
    }
  }

  private async check(hash: string | null | undefined, password: string): Promise<VerifyResult> {
    if (!hash) {
      // Same work as a real check, so the answer time does not reveal whether the account exists.
      await argon2.verify(await this.dummyHash, password).catch(() => false);
      return { ok: false, needsRehash: false };
    }
    const ok = await argon2.verify(hash, password).catch(() => false);
    return { ok, needsRehash: ok && argon2.needsRehash(hash, this.options) };
  }
}
