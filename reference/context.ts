/** Everything a request handler needs, built once per server. */
import type { Config } from './config';
import type { Dialect } from './dialects';
import type { FaultSet } from './faults';
import type { Registry } from './registry';
import type { AccessTokens } from './access-tokens';
import type { ReplayGuard } from './jwt-verify';
import type { Store } from './ledger-of-payments/store';
import type { Lifecycle } from './lifecycle';

export interface ServiceContext {
  config: Config;
  /**
   * The process dialect (REF_DIALECT). A request is answered in its client's dialect (Caller.dialect,
   * requestDialect()); this one applies only where no client is known.
   */
  processDialect: Dialect;
  registry: Registry;
  tokens: AccessTokens;
  /** Used assertion jti values, keyed clientId + jti. */
  assertionJtis: ReplayGuard;
  /** Used SCA nonces, keyed clientId + nonce. */
  scaNonces: ReplayGuard;
  /** Used SCA jti values, keyed clientId + jti (refused where the dialect's scaJtiReplay says so). */
  scaJtis: ReplayGuard;
  store: Store;
  lifecycle: Lifecycle;
  /** Faults that apply to requests not (yet) tied to a client. */
  globalFaults: FaultSet;
}
