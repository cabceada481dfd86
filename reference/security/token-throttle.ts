import { Buckets, type Clock, type Rate } from '../http/rate-limit.js';

/**
 * What failed attempts at the token endpoint cost their sender. A wrong secret costs the server a
 * deliberately slow hash, and a body costs it a parse, so both are counted before they are paid
 * for again: per source address, everything refused before a client was authenticated
 * (oversized, unparsable or malformed bodies, missing or wrong credentials); per client key,
 * wrong secrets. A secret check is counted as it starts and given back when the secret was
 * right, so requests in flight together cannot get past the limit.
 *
 * A key over its limit is refused only to the addresses that themselves failed against it
 * recently: strangers guessing a key's secret from elsewhere cannot lock out the client that
 * holds it (it has not failed, so its secret is still checked). A stranger moving to a fresh
 * address gets one more check of that key from there, within its address's own limit.
 */
export class TokenThrottle {
  private readonly byAddress: Buckets;
  private readonly byKey: Buckets;
  /** Failures per (address, key): which addresses a locked key stays locked for. */
  private readonly byKeyFrom: Buckets;

  constructor(limits: { tokenFailuresPerKey: Rate; tokenFailuresPerAddress: Rate }, clock: Clock = Date.now) {
    this.byAddress = new Buckets(limits.tokenFailuresPerAddress, clock);
    this.byKey = new Buckets(limits.tokenFailuresPerKey, clock);
    this.byKeyFrom = new Buckets(limits.tokenFailuresPerKey, clock);
  }

  /** Whole seconds before this address's requests are read further; 0 when they may be now. */
  addressWait(address: string): number {
    return this.byAddress.wait(address);
  }

  /** Whole seconds before a secret for this key from this address is checked; 0 when it may be now. */
  keyWait(key: string, address: string): number {
    const wait = this.byKey.wait(key);
    return wait && this.byKeyFrom.counted(pair(key, address)) ? wait : 0;
  }

  /** Counts a request refused before its client was authenticated against its address. */
  refused(address: string): void {
    this.byAddress.take(address);
  }

  /**
   * Counts a secret check before it is made, as if it failed: checks run concurrently (the hash
   * takes milliseconds off the event loop), so counting only after each failed would let every
   * request in flight past the limit. `passed` gives it back when the secret was right.
   */
  checking(key: string, address: string): void {
    this.byKey.take(key);
    this.byKeyFrom.take(pair(key, address));
    this.byAddress.take(address);
  }

  /** The secret checked was right: the attempt counted by `checking` does not count. */
  passed(key: string, address: string): void {
    this.byKey.give(key);
    this.byKeyFrom.give(pair(key, address));
    this.byAddress.give(address);
  }
}

/** An address holds no blank, so the pair is unambiguous whatever the key. */
const pair = (key: string, address: string) => `${address} ${key}`;
