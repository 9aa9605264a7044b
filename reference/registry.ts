/** Registered clients (filled by the admin API): credentials, key verdict, routing and faults. */
import { type KeyVerdict, vetPublicKey } from './keys';
import { type FaultName, type FaultSet, isFaultName } from './faults';
import { isLoopbackHost } from './config';
import { type Dialect, resolveDialect } from './dialects';

export type Batching = 'auto' | 'manual';

export interface Client {
  clientId: string;
  clientSecret: string;
  kid: string;
  iss: string;
  publicKeyText: string;
  key: KeyVerdict;
  memberId: string | null;
  notificationUrl: string | null;
  batching: Batching;
  tokenTtlSeconds: number | null;
  /** Global faults plus this client's own, merged once so requests do one Set lookup. */
  faults: FaultSet;
  /** The registration's `dialect`, else the process dialect: this client's requests are answered in it. */
  dialect: Dialect;
  /**
   * A sandbox's predefined test tokens for a client without a key pair (spec §5.6): the jti of the
   * authentication JWT the provider issued, which may be sent again and again, and of the test SCA
   * JWT, which is accepted for any body (its hd and nonce are not checked). Both are still verified
   * like any other (signature, kid, iss, exp). Null: the client signs its own.
   */
  predefinedTokens: { assertionJti: string; scaJti: string } | null;
}

export interface RegistrationResult {
  ok: boolean;
  problems: string[];
  /** The memberId is another client's: a sort code names one institution, so routing stays unambiguous. */
  memberIdTaken?: boolean;
  client?: Client;
}

function str(body: Record<string, unknown>, name: string, problems: string[], optional = false): string | null {
  const value = body[name];
  if (value === undefined || value === null) {
    if (!optional) problems.push(`${name} is required`);
    return null;
  }
  if (typeof value !== 'string' || value === '') {
    problems.push(`${name} must be a non-empty string`);
    return null;
  }
  return value;
}

export class Registry {
  private readonly clients = new Map<string, Client>();
  /** memberId -> clientId, kept beside the clients so routing a payment is one lookup. */
  private readonly members = new Map<string, string>();
  constructor(
    private readonly globalFaults: readonly FaultName[],
    private readonly processDialect: Dialect,
  ) {}

  get(clientId: string): Client | undefined {
    return this.clients.get(clientId);
  }

  /** Validates an admin registration body; re-registering a clientId replaces the client. */
  register(input: unknown): RegistrationResult {
    const problems: string[] = [];
    if (typeof input !== 'object' || input === null || Array.isArray(input))
      return { ok: false, problems: ['body must be a JSON object'] };
    const body = input as Record<string, unknown>;
    const clientId = str(body, 'clientId', problems);
    const clientSecret = str(body, 'clientSecret', problems);
    const kid = str(body, 'kid', problems);
    const iss = str(body, 'iss', problems);
    const publicKey = str(body, 'publicKey', problems);
    const memberId = str(body, 'memberId', problems, true);
    const notificationUrl = str(body, 'notificationUrl', problems, true);
    if (notificationUrl !== null) {
      let url: URL | null = null;
      try {
        url = new URL(notificationUrl);
      } catch {
        problems.push('notificationUrl must be a URL');
      }
      // Notifications are POSTed by the service: only loopback targets, never an outside host.
      if (url && (!/^https?:$/.test(url.protocol) || !isLoopbackHost(url.hostname)))
        problems.push('notificationUrl must be an http(s) loopback URL');
    }
    const batching = body.batching ?? 'auto';
    if (batching !== 'auto' && batching !== 'manual') problems.push('batching must be "auto" or "manual"');
    const ttl = body.tokenTtlSeconds;
    if (ttl !== undefined && ttl !== null && !(typeof ttl === 'number' && Number.isInteger(ttl) && ttl > 0))
      problems.push('tokenTtlSeconds must be a positive integer');
    const faultsIn = body.faults ?? [];
    const own: FaultName[] = [];
    if (!Array.isArray(faultsIn)) problems.push('faults must be an array of fault names');
    else
      for (const name of faultsIn as unknown[]) {
        if (typeof name === 'string' && isFaultName(name)) own.push(name);
        else problems.push(`unknown fault ${JSON.stringify(name)}`);
      }
    let dialect = this.processDialect;
    const dialectIn = body.dialect;
    if (dialectIn !== undefined && dialectIn !== null) {
      // Same grammar as REF_DIALECT: a preset name, or an object of fields (over `default` or its `base`).
      if (typeof dialectIn !== 'string' && (typeof dialectIn !== 'object' || Array.isArray(dialectIn)))
        problems.push('dialect must be a preset name or an object of dialect fields');
      else
        try {
          dialect = resolveDialect(dialectIn as string | Record<string, unknown>);
        } catch (error) {
          problems.push((error as Error).message);
        }
    }
    const predefinedIn = body.predefinedTokens;
    let predefinedTokens: Client['predefinedTokens'] = null;
    if (predefinedIn !== undefined && predefinedIn !== null) {
      const p =
        typeof predefinedIn === 'object' && !Array.isArray(predefinedIn)
          ? (predefinedIn as Record<string, unknown>)
          : {};
      const assertionJti = str(p, 'assertionJti', problems);
      const scaJti = str(p, 'scaJti', problems);
      if (assertionJti && scaJti) predefinedTokens = { assertionJti, scaJti };
      else problems.push('predefinedTokens must be {"assertionJti": "…", "scaJti": "…"}');
    }
    if (problems.length > 0 || !clientId || !clientSecret || !kid || !iss || !publicKey) return { ok: false, problems };
    const holder = memberId === null ? undefined : this.members.get(memberId);
    if (holder !== undefined && holder !== clientId)
      return { ok: false, problems: [`memberId ${memberId} is another client's`], memberIdTaken: true };

    const client: Client = {
      clientId,
      clientSecret,
      kid,
      iss,
      publicKeyText: publicKey,
      key: vetPublicKey(publicKey),
      memberId,
      notificationUrl,
      batching: batching as Batching,
      tokenTtlSeconds: typeof ttl === 'number' ? ttl : null,
      faults: new Set<FaultName>([...this.globalFaults, ...own]),
      dialect,
      predefinedTokens,
    };
    const previous = this.clients.get(clientId);
    if (previous?.memberId && this.members.get(previous.memberId) === clientId) this.members.delete(previous.memberId);
    this.clients.set(clientId, client);
    if (memberId !== null) this.members.set(memberId, clientId);
    return { ok: true, problems, client };
  }

  /** A client that registered `kid`: `preferred` when it did, else the first found (a fault's lookup, not a hot path). */
  withKid(kid: unknown, preferred: Client): Client | undefined {
    if (preferred.kid === kid) return preferred;
    for (const client of this.clients.values()) if (client.kid === kid) return client;
    return undefined;
  }

  /** Whether client `first` registered before client `then` (a fault's lookup, not a hot path). */
  registeredBefore(first: string, then: string): boolean {
    for (const clientId of this.clients.keys()) {
      if (clientId === first) return true;
      if (clientId === then) return false;
    }
    return false;
  }

  /** The first client registered with `fault` on (a fault's lookup, not a hot path). */
  firstWith(fault: FaultName): string | undefined {
    for (const [clientId, client] of this.clients) if (client.faults.has(fault)) return clientId;
    return undefined;
  }

  /** The beneficiary of an incoming payment: the client whose memberId is the creditor agent's mmbId. */
  byMemberId(memberId: string): Client | undefined {
    const clientId = this.members.get(memberId);
    return clientId === undefined ? undefined : this.clients.get(clientId);
  }
}
